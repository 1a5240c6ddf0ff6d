package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Resize modes against an independent Java reference (tent-filter bilinear on ImageIO's pixels, crop rectangle
 * computed here from torchvision's formulas). Tolerances: mean |diff| per byte < 1.5, max <= 16 on smooth images
 * (the reference maps the crop with exact sub-pixel offsets; the decoder snaps it to whole source pixels).
 */
class ImageResizeTest {
    static final double MEAN_TOLERANCE = 1.5;
    static final int MAX_TOLERANCE = 16;
    private static final byte CANARY = 0x5A;

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    /** Decodes into a buffer with a canary tail and checks the decoder wrote nothing past spec.bytes(). */
    static byte[] decode(final SingleThreadImageDecoder d, final byte[] file, final ImageSpec spec) {
        final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes() + 64);
        dst.setMemory(0, spec.bytes() + 64, CANARY);
        d.decode(TestImages.offHeap(file), 0, file.length, "test", spec, dst, 0);
        for (int i = spec.bytes(); i < spec.bytes() + 64; i++) {
            assertThat(dst.getByte(i)).as("byte %d past the destination", i).isEqualTo(CANARY);
        }
        return TestImages.bytes(dst, spec.bytes());
    }

    private static void assertClose(final byte[] actual, final byte[] expected) {
        final double[] d = TestImages.diff(actual, expected);
        assertThat(d[0]).as("mean |diff|").isLessThan(MEAN_TOLERANCE);
        assertThat(d[1]).as("max |diff|").isLessThanOrEqualTo(MAX_TOLERANCE);
    }

    @Test
    void shouldCenterCropLikeTorchvisionResizeAndCenterCrop() {
        final BufferedImage img = TestImages.photo(500, 375, 21);
        final byte[] src = TestImages.rgb(img);
        // torchvision: Resize(256) -> 341x256; CenterCrop(224) -> left = round(58.5) = 58 (half-even), top = 16.
        final double sx = 500 / 341.0;
        final double sy = 375 / 256.0;
        final int x0 = (int) Math.round(58 * sx);
        final int y0 = (int) Math.round(16 * sy);
        final byte[] expected = TestImages.bilinear(src, 500, 375, 3, x0, y0, (int) Math.round(224 * sx),
                (int) Math.round(224 * sy), 224, 224);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            assertClose(decode(d, TestImages.encode(img, "png"), ImageSpec.centerCrop(256, 224, PixelFormat.RGB24)),
                    expected);
        }
    }

    @Test
    void shouldResizeExactlyDownAndUp() {
        final BufferedImage img = TestImages.photo(300, 200, 22);
        final byte[] src = TestImages.rgb(img);
        final byte[] png = TestImages.encode(img, "png");
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            assertClose(decode(d, png, ImageSpec.exact(120, 90, PixelFormat.RGB24)),
                    TestImages.bilinear(src, 300, 200, 3, 0, 0, 300, 200, 120, 90));
            assertClose(decode(d, png, ImageSpec.exact(450, 310, PixelFormat.RGB24)),
                    TestImages.bilinear(src, 300, 200, 3, 0, 0, 300, 200, 450, 310));
        }
    }

    @Test
    void shouldPadKeepingTheAspectRatio() {
        final BufferedImage img = TestImages.photo(400, 200, 23);
        final byte[] src = TestImages.rgb(img);
        final ImageSpec spec = ImageSpec.pad(224, 224, PixelFormat.RGB24).withPadValue(7);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final byte[] out = decode(d, TestImages.encode(img, "png"), spec);
            final int row = 224 * 3;
            for (int i = 0; i < 56 * row; i++) {
                assertThat(out[i]).isEqualTo((byte) 7);
                assertThat(out[168 * row + i]).isEqualTo((byte) 7);
            }
            final byte[] inner = new byte[112 * row];
            System.arraycopy(out, 56 * row, inner, 0, inner.length);
            assertClose(inner, TestImages.bilinear(src, 400, 200, 3, 0, 0, 400, 200, 224, 112));
        }
    }

    /**
     * swscale's SIMD row writers for GRAY8 may store a few bytes past the scaled width; those must not survive in
     * the pad border (the border is filled after scaling).
     */
    @Test
    void shouldWriteOnlyThePadValueOutsideTheScaledImageInGray() {
        final BufferedImage img = new BufferedImage(64, 100, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 100; y++) {
            for (int x = 0; x < 64; x++) {
                img.setRGB(x, y, 0xC8C8C8);
            }
        }
        final ImageSpec spec = ImageSpec.pad(224, 224, PixelFormat.GRAY8).withPadValue(0);
        final ScalePlan rect = new ScalePlan();
        rect.compute(spec, 64, 100, 0, 0);
        assertThat(rect.dstW).as("scaled width").isEqualTo(143);
        assertThat(rect.dstH).as("scaled height").isEqualTo(224);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final byte[] out = decode(d, TestImages.encode(img, "png"), spec);
            for (int y = 0; y < 224; y++) {
                for (int x = 0; x < 224; x++) {
                    final boolean inside = x >= rect.dstX && x < rect.dstX + rect.dstW && y >= rect.dstY
                            && y < rect.dstY + rect.dstH;
                    assertThat(out[y * 224 + x] & 0xFF).as("(%d, %d)", x, y).isEqualTo(inside ? 200 : 0);
                }
            }
        }
    }

    @Test
    void shouldConvertToGrayWithBt601Luma() {
        final BufferedImage img = TestImages.photo(64, 48, 24);
        final byte[] src = TestImages.rgb(img);
        final byte[] expected = new byte[64 * 48];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = (byte) Math.round(0.299 * (src[3 * i] & 0xFF) + 0.587 * (src[3 * i + 1] & 0xFF)
                    + 0.114 * (src[3 * i + 2] & 0xFF));
        }
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final double[] diff = TestImages.diff(decode(d, TestImages.encode(img, "png"),
                    ImageSpec.exact(64, 48, PixelFormat.GRAY8)), expected);
            assertThat(diff[1]).isLessThanOrEqualTo(2);
        }
    }

    @Test
    void shouldSupportBicubicAndAreaFilters() {
        final BufferedImage img = TestImages.photo(320, 240, 25);
        final byte[] png = TestImages.encode(img, "png");
        final byte[] expected = TestImages.bilinear(TestImages.rgb(img), 320, 240, 3, 0, 0, 320, 240, 160, 120);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            for (final Interpolation f : new Interpolation[] {Interpolation.BICUBIC, Interpolation.AREA}) {
                final double[] diff = TestImages.diff(decode(d, png,
                        ImageSpec.exact(160, 120, PixelFormat.RGB24).withInterpolation(f)), expected);
                assertThat(diff[0]).as("%s mean |diff| vs bilinear reference", f).isLessThan(2.0);
            }
        }
    }

    @Test
    void shouldDecodeLargeJpegsAtReducedScaleWithSimilarPixels() {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(2048, 1536, 26), 0.9f, false);
        final ImageSpec spec = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final byte[] reduced = decode(d, jpeg, spec);
            assertThat(d.lastLowres()).isEqualTo(2);
            assertThat(d.lastSourceWidth()).isEqualTo(2048);
            final byte[] full = decode(d, jpeg, spec.withLowres(false));
            assertThat(d.lastLowres()).isZero();
            final double[] diff = TestImages.diff(reduced, full);
            assertThat(diff[0]).as("mean |diff| lowres vs full decode").isLessThan(2.0);
        }
    }
}
