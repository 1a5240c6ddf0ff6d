package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@link ReducedJpegDecoder} at 1/8 scale (one pixel per block, its DC coefficient): the same output bytes as FFmpeg's
 * lowres 3 for every sampling it accepts, close to an independent reference (ImageIO decode, 8x8 box average), FFmpeg
 * for everything else, and corrupt data rejected with a {@link MediaException} (never a crash or another exception),
 * nothing native left over.
 */
class ReducedJpegEighthScaleTest {
    /** 512x384 (and 517x389) sources to 64x48: ScalePlan picks 1/8 scale. */
    private static final ImageSpec EIGHTH = ImageSpec.exact(64, 48, PixelFormat.RGB24);
    private static final ReducedJpegChecks CHECK = new ReducedJpegChecks(3, EIGHTH);

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    private static byte[] photoJpeg(final int w, final int h, final int lumaH, final int lumaV, final int restart) {
        return TestJpegs.jpeg(TestJpegs.grainy(TestImages.photo(w, h, 41), 6, 42), 0.9f, lumaH, lumaV, restart);
    }

    @Test
    void shouldProduceTheBytesFfmpegLowres3ProducesForEverySupportedLayout() {
        final BufferedImage noise = TestImages.noise(512, 384, BufferedImage.TYPE_3BYTE_BGR, 43);
        final List<byte[]> jpegs = List.of(
                photoJpeg(512, 384, 2, 2, 0), // 4:2:0
                photoJpeg(517, 389, 2, 2, 0), // partial MCUs at the right and bottom
                photoJpeg(512, 384, 1, 1, 0), // 4:4:4
                photoJpeg(512, 384, 2, 1, 5), // 4:2:2, restart every 5 MCUs
                photoJpeg(512, 384, 1, 2, 7), // 4:4:0
                photoJpeg(520, 384, 4, 1, 3), // 4:1:1
                TestJpegs.jpeg(noise, 0.95f, 2, 2, 1), // long codes, every restart marker
                TestJpegs.jpeg(TestJpegs.gray(TestImages.photo(517, 389, 44)), 0.9f, 1, 1, 0));
        final ImageSpec[] specs = {EIGHTH, ImageSpec.exact(64, 48, PixelFormat.GRAY8),
            ImageSpec.centerCrop(48, 40, PixelFormat.BGR24).withInterpolation(Interpolation.AREA)};
        CHECK.assertSameBytesAsFfmpeg(jpegs, specs);
    }

    /**
     * A COM "Metasoft MJPEG Codec" makes FFmpeg flip the picture upside down, a COM "CS=ITU601" makes it read the
     * picture as limited-range YUV. The reduced-scale decoder does neither, so such JPEGs are left to FFmpeg: at 1/8
     * scale the picture is the one FFmpeg gives, as at every other scale.
     */
    @Test
    void shouldLeaveJpegsWhoseCommentsChangeFfmpegsPictureToFfmpeg() {
        final byte[] plain = photoJpeg(512, 384, 2, 2, 0);
        for (final String comment : new String[] {"Metasoft MJPEG Codec", "CS=ITU601"}) {
            final byte[] tagged = TestJpegs.withSegment(plain, 0xFE, comment.getBytes(StandardCharsets.US_ASCII));
            try (SingleThreadImageDecoder fast = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true);
                 SingleThreadImageDecoder ffmpeg = new SingleThreadImageDecoder(MediaLimits.DEFAULT, false)) {
                final byte[] ours = ImageResizeTest.decode(fast, tagged, EIGHTH);
                final byte[] reference = ImageResizeTest.decode(ffmpeg, tagged, EIGHTH);
                assertThat(ffmpeg.lastLowres()).isEqualTo(3);
                assertThat(TestImages.diff(ours, reference)[1]).as("max |diff| from FFmpeg, COM %s", comment).isZero();
                assertThat(fast.lastReduced()).as("COM %s", comment).isFalse();
            }
        }
    }

    @Test
    void shouldStayCloseToAnIndependentBoxAverageOfImageIoPixels() {
        final byte[] jpeg = TestJpegs.jpeg(TestImages.photo(512, 384, 45), 0.9f, 2, 2, 0);
        // Independent reference: ImageIO's full decode, each 8x8 block averaged (a block's DC is its mean).
        final byte[] rgb = TestImages.rgb(TestImages.read(jpeg));
        final byte[] luma = ReducedJpegChecks.luma(rgb);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
            final double[] gray = TestImages.diff(ImageResizeTest.decode(d, jpeg,
                    ImageSpec.exact(64, 48, PixelFormat.GRAY8)), ReducedJpegChecks.boxAverage(luma, 512, 384, 1, 8));
            assertThat(d.lastReduced()).isTrue();
            // Luma: the DC is the block mean, so only rounding separates them (measured: mean 0.02, max 1).
            assertThat(gray[0]).as("luma mean |diff|").isLessThan(0.25);
            assertThat(gray[1]).as("luma max |diff|").isLessThanOrEqualTo(2);
            final double[] color = TestImages.diff(ImageResizeTest.decode(d, jpeg, EIGHTH),
                    ReducedJpegChecks.boxAverage(rgb, 512, 384, 3, 8));
            // Chroma at 1/8 of a 4:2:0 image is one sample per 16x16 pixels, upsampled by the scaler: colour edges
            // differ from a per-8x8 average of fully upsampled chroma (measured: mean 1.75, max 36; FFmpeg's lowres 3
            // gives the same bytes, see above).
            assertThat(color[0]).as("RGB mean |diff|").isLessThan(2.5);
            assertThat(color[1]).as("RGB max |diff|").isLessThanOrEqualTo(48);
        }
    }


    @Test
    void shouldLeaveProgressiveJpegsAndLargerScalesToFfmpeg() {
        final byte[] progressive = TestImages.jpeg(TestImages.photo(512, 384, 46), 0.9f, true);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
            ImageResizeTest.decode(d, progressive, EIGHTH);
            assertThat(d.lastReduced()).isFalse();
            assertThat(d.lastLowres()).isEqualTo(3);
            ImageResizeTest.decode(d, photoJpeg(512, 384, 2, 2, 0), ImageSpec.exact(256, 192, PixelFormat.RGB24));
            assertThat(d.lastReduced()).as("1/2 scale is FFmpeg's").isFalse();
            assertThat(d.lastLowres()).isEqualTo(1);
        }
        final ReducedJpegDecoder reduced = new ReducedJpegDecoder();
        try {
            final UnsafeBuffer src = TestImages.offHeap(progressive);
            assertThat(reduced.decode(src.addressOffset(), progressive.length, 3, MediaLimits.DEFAULT, "p")).isNull();
        } finally {
            reduced.free();
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
        CHECK.assertRejectsInvalidHuffmanCodesAt(photoJpeg(512, 384, 2, 2, 0), 2000);
    }

    @Test
    void shouldRejectARestartMarkerOutOfSequence() {
        CHECK.assertRejectsRestartOutOfSequence(photoJpeg(512, 384, 2, 2, 4), 1);
    }

    @Test
    void shouldRejectCorruptTablesAndHeaders() {
        final byte[] jpeg = photoJpeg(512, 384, 2, 2, 0);
        final int dht = TestJpegs.find(jpeg, 0xC4, 2);
        final byte[] overfull = jpeg.clone();
        assertThat(overfull[dht + 7]).as("codes of length 3 in the first table").isGreaterThanOrEqualTo((byte) 3);
        overfull[dht + 5] += 3; // three codes of length 1 (taken from length 3): more than the code space holds
        overfull[dht + 7] -= 3;
        CHECK.assertRejects(overfull, "code space");
        final byte[] undefinedTable = jpeg.clone();
        final int sos = TestJpegs.find(jpeg, 0xDA, 2);
        undefinedTable[sos + 6] = 0x33; // component 1 uses DC and AC tables 3, never defined
        CHECK.assertRejects(undefinedTable, "undefined");
        final byte[] oversized = jpeg.clone();
        assertThat(catchThrowableOfType(MediaException.class, () -> CHECK.decodeDirect(oversized,
                new MediaLimits(512L * 383, 1, 1, 1 << 20)))).hasMessageContaining("512x384");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldDecodeOrRejectEveryMutantAndStayUsable() {
        final List<byte[]> seeds = List.of(photoJpeg(512, 384, 2, 2, 3), photoJpeg(256, 200, 1, 1, 0),
                TestJpegs.jpeg(TestJpegs.gray(TestImages.photo(256, 200, 47)), 0.8f, 1, 1, 2));
        CHECK.assertSurvivesMutants("jpeg-dc", 20261121L, seeds, 3_000, ImageSpec.exact(32, 25, PixelFormat.RGB24), photoJpeg(512, 384, 2, 2, 0));
    }
}
