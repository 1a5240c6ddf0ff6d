package org.spdl4j.media;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScalePlanTest {
    @Test
    void shouldMapTorchvisionCenterCropBackToSourcePixels() {
        // 500x375 -> Resize(256) = 341x256 -> CenterCrop(224) at left round(58.5) = 58 (half-even), top 16.
        final ScalePlan plan = new ScalePlan();
        plan.compute(ImageSpec.centerCrop(256, 224, PixelFormat.RGB24), 500, 375, 0, 0);
        assertThat(new int[] {plan.srcX, plan.srcY, plan.srcW, plan.srcH})
                .containsExactly((int) Math.round(58 * 500 / 341.0), (int) Math.round(16 * 375 / 256.0),
                        (int) Math.round(224 * 500 / 341.0), (int) Math.round(224 * 375 / 256.0));
        assertThat(new int[] {plan.dstX, plan.dstY, plan.dstW, plan.dstH}).containsExactly(0, 0, 224, 224);
    }

    @Test
    void shouldAlignCropOffsetsToTheChromaGrid() {
        final ScalePlan plan = new ScalePlan();
        plan.compute(ImageSpec.centerCrop(256, 224, PixelFormat.RGB24), 500, 375, 1, 1);
        assertThat(plan.srcX % 2).isZero();
        assertThat(plan.srcY % 2).isZero();
    }

    @Test
    void shouldCenterThePaddedRectangle() {
        final ScalePlan plan = new ScalePlan();
        plan.compute(ImageSpec.pad(224, 224, PixelFormat.RGB24), 400, 200, 0, 0);
        assertThat(new int[] {plan.dstX, plan.dstY, plan.dstW, plan.dstH}).containsExactly(0, 56, 224, 112);
        assertThat(new int[] {plan.srcX, plan.srcY, plan.srcW, plan.srcH}).containsExactly(0, 0, 400, 200);
    }

    @Test
    void shouldChooseTheLargestLowresThatKeepsEnoughPixels() {
        final ImageSpec crop = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
        assertThat(ScalePlan.chooseLowres(crop, 4000, 3000)).isEqualTo(3); // 3000/8 = 375 >= 256
        assertThat(ScalePlan.chooseLowres(crop, 2048, 1536)).isEqualTo(2); // 1536/4 = 384, /8 = 192 < 256
        assertThat(ScalePlan.chooseLowres(crop, 1280, 960)).isEqualTo(1);
        assertThat(ScalePlan.chooseLowres(crop, 500, 375)).isZero();
        assertThat(ScalePlan.chooseLowres(crop.withLowres(false), 4000, 3000)).isZero();
        assertThat(ScalePlan.chooseLowres(ImageSpec.exact(1000, 10, PixelFormat.RGB24), 4000, 3000)).isEqualTo(2); // 4000/4 = 1000
    }
}
