package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.lang.ref.Reference;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ReducedJpegDecoder} at 1/4 scale (2x2 pixels per block from the four lowest frequencies): the same output
 * bytes as FFmpeg's lowres 2 for every sampling it accepts, close to an independent reference (ImageIO decode, 4x4 box
 * average), and corrupt data rejected with a {@link MediaException}, nothing native left over.
 */
class ReducedJpegQuarterScaleTest {
    /** 512x384 (and 517x389) sources to 128x96: ScalePlan picks 1/4 scale. */
    private static final ImageSpec QUARTER = ImageSpec.exact(128, 96, PixelFormat.RGB24);
    private static final ReducedJpegChecks CHECK = new ReducedJpegChecks(2, QUARTER);
    private static final int LOWRES = 2;

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    private static byte[] photoJpeg(final int w, final int h, final int lumaH, final int lumaV, final int restart) {
        return TestJpegs.jpeg(TestJpegs.grainy(TestImages.photo(w, h, 51), 6, 52), 0.9f, lumaH, lumaV, restart);
    }

    @Test
    void shouldProduceTheBytesFfmpegLowres2ProducesForEverySupportedLayout() {
        final BufferedImage noise = TestImages.noise(512, 384, BufferedImage.TYPE_3BYTE_BGR, 53);
        final List<byte[]> jpegs = List.of(
                photoJpeg(512, 384, 2, 2, 0), // 4:2:0
                photoJpeg(517, 389, 2, 2, 0), // partial MCUs at the right and bottom
                photoJpeg(514, 387, 1, 1, 0), // 4:4:4, odd size
                photoJpeg(512, 384, 2, 1, 5), // 4:2:2, restart every 5 MCUs
                photoJpeg(512, 384, 1, 2, 7), // 4:4:0
                photoJpeg(520, 384, 4, 1, 3), // 4:1:1
                TestJpegs.jpeg(noise, 0.95f, 2, 2, 1), // long codes, every restart marker, clipped pixels
                TestJpegs.jpeg(noise, 1.0f, 1, 1, 0), // quantizers of 1: the largest coefficients
                TestJpegs.jpeg(TestImages.photo(512, 384, 54), 0.3f, 2, 2, 0), // coarse quantizers, short blocks
                TestJpegs.jpeg(TestJpegs.gray(TestImages.photo(517, 389, 55)), 0.9f, 1, 1, 0));
        final ImageSpec[] specs = {QUARTER, ImageSpec.exact(128, 96, PixelFormat.GRAY8),
            ImageSpec.centerCrop(96, 80, PixelFormat.BGR24).withInterpolation(Interpolation.AREA)};
        CHECK.assertSameBytesAsFfmpeg(jpegs, specs);
    }

    @Test
    void shouldStayCloseToAnIndependentBoxAverageOfImageIoPixels() {
        final byte[] jpeg = TestJpegs.jpeg(TestImages.photo(512, 384, 56), 0.9f, 1, 1, 0);
        // Independent reference: ImageIO's full decode, each 4x4 quarter of a block averaged.
        final byte[] rgb = TestImages.rgb(TestImages.read(jpeg));
        final byte[] luma = ReducedJpegChecks.luma(rgb);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
            final double[] gray = TestImages.diff(ImageResizeTest.decode(d, jpeg,
                    ImageSpec.exact(128, 96, PixelFormat.GRAY8)), ReducedJpegChecks.boxAverage(luma, 512, 384, 1, 4));
            assertThat(d.lastReduced()).isTrue();
            assertThat(d.lastLowres()).isEqualTo(LOWRES);
            // The 2x2 transform approximates each 4x4 mean from four of 64 coefficients: close on a photo, not exact
            // (measured: mean 0.06, max 5).
            assertThat(gray[0]).as("luma mean |diff|").isLessThan(0.5);
            assertThat(gray[1]).as("luma max |diff|").isLessThanOrEqualTo(10);
            final double[] color = TestImages.diff(ImageResizeTest.decode(d, jpeg, QUARTER),
                    ReducedJpegChecks.boxAverage(rgb, 512, 384, 3, 4));
            // 4:4:4, so chroma is as sharp as luma (measured: mean 0.15, max 12).
            assertThat(color[0]).as("RGB mean |diff|").isLessThan(1.0);
            assertThat(color[1]).as("RGB max |diff|").isLessThanOrEqualTo(24);
        }
    }


    @Test
    void shouldLeaveProgressiveJpegsToFfmpeg() {
        final byte[] progressive = TestImages.jpeg(TestImages.photo(512, 384, 57), 0.9f, true);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
            ImageResizeTest.decode(d, progressive, QUARTER);
            assertThat(d.lastReduced()).isFalse();
            assertThat(d.lastLowres()).isEqualTo(LOWRES);
        }
    }

    /** T.81 leaves "run r, size 0" for r in 1..14 undefined: FFmpeg skips r + 1 zeros, and so must we. */
    @Test
    void shouldReadAZeroSizeSymbolAsFfmpegDoes() {
        CHECK.assertSameBytesAsFfmpegForZeroSizeRuns();
    }

    @Test
    void shouldRejectTruncatedEntropyData() {
        CHECK.assertRejectsTruncatedEntropyData(photoJpeg(512, 384, 2, 2, 0));
    }

    @Test
    void shouldRejectInvalidHuffmanCodes() {
        CHECK.assertRejectsInvalidHuffmanCodesAt(photoJpeg(512, 384, 2, 2, 0), 3000);
    }

    @Test
    void shouldRejectARestartMarkerOutOfSequence() {
        CHECK.assertRejectsRestartOutOfSequence(photoJpeg(512, 384, 2, 2, 4), 2);
    }

    @Test
    void shouldRejectAZeroQuantizer() {
        final byte[] jpeg = photoJpeg(512, 384, 2, 2, 0);
        final int dqt = TestJpegs.find(jpeg, 0xDB, 2);
        jpeg[dqt + 5 + 2] = 0; // zig-zag position 2 of the first table
        CHECK.assertRejects(jpeg, "quantizer 2 of table 0 is 0");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldDecodeOrRejectEveryMutantAndStayExact() {
        final List<byte[]> seeds = List.of(photoJpeg(512, 384, 2, 2, 3), photoJpeg(256, 200, 1, 1, 0),
                TestJpegs.jpeg(TestJpegs.gray(TestImages.photo(256, 200, 58)), 0.8f, 1, 1, 2));
        CHECK.assertSurvivesMutants("jpeg-quarter", 20261122L, seeds, 1_500, ImageSpec.exact(64, 50, PixelFormat.RGB24), photoJpeg(512, 384, 2, 2, 0));
    }

    @Test
    void shouldRefuseScalesItDoesNotDecode() {
        final ReducedJpegDecoder reduced = new ReducedJpegDecoder();
        final byte[] jpeg = photoJpeg(64, 64, 1, 1, 0);
        final UnsafeBuffer in = TestImages.offHeap(jpeg); // held: the decoder reads by address (a collected direct
        try {                                              // buffer is freed under it: "JPEG marker expected")
            final long at = in.addressOffset();
            assertThatThrownBy(() -> reduced.decode(at, jpeg.length, 1, MediaLimits.DEFAULT, "x"))
                    .isInstanceOf(IllegalArgumentException.class);
            final AVFrame quarter = reduced.decode(at, jpeg.length, LOWRES, MediaLimits.DEFAULT, "x");
            assertThat(quarter.width()).isEqualTo(16);
            assertThat(quarter.height()).isEqualTo(16);
        } finally {
            Reference.reachabilityFence(in);
            reduced.free();
        }
    }
}
