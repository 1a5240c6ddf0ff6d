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

    @Test
    void shouldChooseTheRandomCropsScaleFromTheCropNotTheImage() {
        final ImageSpec spec = ImageSpec.randomResizedCrop(224, RandomResizedCrop.imagenet(), PixelFormat.RGB24);
        final ScalePlan plan = new ScalePlan();
        plan.setCrop(0, 0, 4000, 3000, false, false);
        assertThat(plan.cropLowres(spec)).isEqualTo(3); // 3000/8 = 375 >= 224
        plan.setCrop(100, 100, 1000, 900, false, false);
        assertThat(plan.cropLowres(spec)).isEqualTo(2); // 900/4 = 225 >= 224, /8 < 224
        plan.setCrop(100, 100, 1000, 895, false, false);
        assertThat(plan.cropLowres(spec)).isEqualTo(1); // 895/4 = 223 < 224
        plan.setCrop(100, 100, 447, 2000, false, false);
        assertThat(plan.cropLowres(spec)).isZero(); // 447/2 = 223: never upscale
        plan.setCrop(0, 0, 4000, 3000, false, false);
        assertThat(plan.cropLowres(spec.withLowres(false))).isZero();
    }

    @Test
    void shouldMapTheRandomCropIntoTheReducedFrameAlignedToTheChromaGrid() {
        final ImageSpec spec = ImageSpec.randomResizedCrop(224, RandomResizedCrop.imagenet(), PixelFormat.RGB24);
        final ScalePlan plan = new ScalePlan();
        // a 4000x3000 JPEG at 1/4 is a 1000x750 frame; crop x 1003..2803, y 501..2301 -> /4, rounded to nearest
        plan.setCrop(1003, 501, 1800, 1800, true, false);
        plan.compute(spec, 1000, 750, 2, 0, 0);
        assertThat(new int[] {plan.srcX, plan.srcY, plan.srcW, plan.srcH}).containsExactly(251, 125, 450, 450);
        // 4:2:0: the origin goes down to even columns and rows, the size stays
        plan.compute(spec, 1000, 750, 2, 1, 1);
        assertThat(new int[] {plan.srcX, plan.srcY, plan.srcW, plan.srcH}).containsExactly(250, 124, 450, 450);
        assertThat(new int[] {plan.dstX, plan.dstY, plan.dstW, plan.dstH}).containsExactly(0, 0, 224, 224);
        // at full scale the crop is the source rectangle itself (4:4:4)
        plan.compute(spec, 4000, 3000, 0, 0, 0);
        assertThat(new int[] {plan.srcX, plan.srcY, plan.srcW, plan.srcH}).containsExactly(1003, 501, 1800, 1800);
    }

    @Test
    void shouldKeepTheMappedCropInsideTheFrameAtTheEdges() {
        final ImageSpec spec = ImageSpec.randomResizedCrop(224, RandomResizedCrop.imagenet(), PixelFormat.RGB24);
        final ScalePlan plan = new ScalePlan();
        final RandomResizedCrop crop = RandomResizedCrop.imagenet();
        for (long seed = 0; seed < 5_000; seed++) {
            final int w = 1001 + (int) (seed % 37);
            final int h = 601 + (int) (seed % 23);
            crop.choose(w, h, seed, plan);
            for (int lowres = 0; lowres <= 3; lowres++) {
                final int fw = -((-w) >> lowres); // FFmpeg's frame size at lowres: ceil
                final int fh = -((-h) >> lowres);
                plan.compute(spec, fw, fh, lowres, 1, 1);
                assertThat(plan.srcX % 2).isZero();
                assertThat(plan.srcY % 2).isZero();
                assertThat(plan.srcW).isPositive();
                assertThat(plan.srcH).isPositive();
                assertThat(plan.srcX + plan.srcW).as("seed %d lowres %d", seed, lowres).isLessThanOrEqualTo(fw);
                assertThat(plan.srcY + plan.srcH).as("seed %d lowres %d", seed, lowres).isLessThanOrEqualTo(fh);
            }
        }
    }
}
