package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.testing.NoLeftoversExtension;

import java.awt.image.BufferedImage;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@link JpegDcDecoder} at 1/4 scale (2x2 pixels per block from the four lowest frequencies): the same output bytes
 * as FFmpeg's lowres 2 for every sampling it accepts, close to an independent reference (ImageIO decode, 4x4 box
 * average), and corrupt data rejected with a {@link MediaException}, nothing native left over.
 */
@ExtendWith(NoLeftoversExtension.class)
class JpegQuarterDecoderTest {
    /** 512x384 (and 517x389) sources to 128x96: ScalePlan picks 1/4 scale. */
    private static final ImageSpec QUARTER = ImageSpec.exact(128, 96, PixelFormat.RGB24);
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
        try (SingleThreadImageDecoder fast = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true);
             SingleThreadImageDecoder ffmpeg = new SingleThreadImageDecoder(MediaLimits.DEFAULT, false)) {
            for (int i = 0; i < jpegs.size(); i++) {
                for (final ImageSpec spec : specs) {
                    final byte[] ours = ImageResizeTest.decode(fast, jpegs.get(i), spec);
                    assertThat(fast.lastDcOnly()).as("jpeg %d took the low-frequency path", i).isTrue();
                    assertThat(fast.lastLowres()).isEqualTo(LOWRES);
                    final byte[] reference = ImageResizeTest.decode(ffmpeg, jpegs.get(i), spec);
                    assertThat(ffmpeg.lastDcOnly()).isFalse();
                    assertThat(ffmpeg.lastLowres()).isEqualTo(LOWRES);
                    assertThat(ours).as("jpeg %d, %s", i, spec).isEqualTo(reference);
                }
            }
        }
    }

    @Test
    void shouldStayCloseToAnIndependentBoxAverageOfImageIoPixels() {
        final byte[] jpeg = TestJpegs.jpeg(TestImages.photo(512, 384, 56), 0.9f, 1, 1, 0);
        // Independent reference: ImageIO's full decode, each 4x4 quarter of a block averaged.
        final byte[] rgb = TestImages.rgb(TestImages.read(jpeg));
        final byte[] luma = new byte[512 * 384];
        for (int i = 0; i < luma.length; i++) {
            luma[i] = (byte) Math.round(0.299 * (rgb[3 * i] & 0xFF) + 0.587 * (rgb[3 * i + 1] & 0xFF)
                    + 0.114 * (rgb[3 * i + 2] & 0xFF));
        }
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
            final double[] gray = TestImages.diff(ImageResizeTest.decode(d, jpeg,
                    ImageSpec.exact(128, 96, PixelFormat.GRAY8)), boxAverage(luma, 512, 384, 1));
            assertThat(d.lastDcOnly()).isTrue();
            assertThat(d.lastLowres()).isEqualTo(LOWRES);
            // The 2x2 transform approximates each 4x4 mean from four of 64 coefficients: close on a photo, not exact
            // (measured: mean 0.06, max 5).
            assertThat(gray[0]).as("luma mean |diff|").isLessThan(0.5);
            assertThat(gray[1]).as("luma max |diff|").isLessThanOrEqualTo(10);
            final double[] color = TestImages.diff(ImageResizeTest.decode(d, jpeg, QUARTER),
                    boxAverage(rgb, 512, 384, 3));
            // 4:4:4, so chroma is as sharp as luma (measured: mean 0.15, max 12).
            assertThat(color[0]).as("RGB mean |diff|").isLessThan(1.0);
            assertThat(color[1]).as("RGB max |diff|").isLessThanOrEqualTo(24);
        }
    }

    /** 4x4 block means of an interleaved image. */
    private static byte[] boxAverage(final byte[] src, final int w, final int h, final int channels) {
        final byte[] out = new byte[(w / 4) * (h / 4) * channels];
        for (int by = 0; by < h / 4; by++) {
            for (int bx = 0; bx < w / 4; bx++) {
                for (int c = 0; c < channels; c++) {
                    int sum = 0;
                    for (int y = 0; y < 4; y++) {
                        for (int x = 0; x < 4; x++) {
                            sum += src[((by * 4 + y) * w + bx * 4 + x) * channels + c] & 0xFF;
                        }
                    }
                    out[(by * (w / 4) + bx) * channels + c] = (byte) Math.round(sum / 16.0);
                }
            }
        }
        return out;
    }

    @Test
    void shouldLeaveProgressiveJpegsToFfmpeg() {
        final byte[] progressive = TestImages.jpeg(TestImages.photo(512, 384, 57), 0.9f, true);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
            ImageResizeTest.decode(d, progressive, QUARTER);
            assertThat(d.lastDcOnly()).isFalse();
            assertThat(d.lastLowres()).isEqualTo(LOWRES);
        }
    }

    @Test
    void shouldRejectTruncatedEntropyData() {
        final byte[] jpeg = photoJpeg(512, 384, 2, 2, 0);
        assertRejects(Arrays.copyOf(jpeg, jpeg.length * 2 / 3), "truncated");
        assertPipelineRejects(Arrays.copyOf(jpeg, jpeg.length * 2 / 3));
    }

    @Test
    void shouldRejectInvalidHuffmanCodes() {
        final byte[] jpeg = photoJpeg(512, 384, 2, 2, 0);
        final int at = TestJpegs.scanData(jpeg) + 3000;
        for (int i = 0; i < 16; i += 2) { // stuffed 0xFF bytes: a run of 1 bits, which no JPEG code is
            jpeg[at + i] = (byte) 0xFF;
            jpeg[at + i + 1] = 0;
        }
        assertRejects(jpeg, "Huffman code");
        assertPipelineRejects(jpeg);
    }

    @Test
    void shouldRejectARestartMarkerOutOfSequence() {
        final byte[] jpeg = photoJpeg(512, 384, 2, 2, 4);
        final int rst2 = TestJpegs.find(jpeg, 0xD2, TestJpegs.scanData(jpeg));
        jpeg[rst2 + 1] = (byte) 0xD6;
        assertRejects(jpeg, "RST2 expected");
    }

    @Test
    void shouldRejectAZeroQuantizer() {
        final byte[] jpeg = photoJpeg(512, 384, 2, 2, 0);
        final int dqt = TestJpegs.find(jpeg, 0xDB, 2);
        jpeg[dqt + 5 + 2] = 0; // zig-zag position 2 of the first table
        assertRejects(jpeg, "quantizer 2 of table 0 is 0");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldDecodeOrRejectEveryMutantAndStayExact() {
        final List<byte[]> seeds = List.of(photoJpeg(512, 384, 2, 2, 3), photoJpeg(256, 200, 1, 1, 0),
                TestJpegs.jpeg(TestJpegs.gray(TestImages.photo(256, 200, 58)), 0.8f, 1, 1, 2));
        final Mutator mutator = new Mutator(20261122L, seeds);
        final FuzzRun direct = new FuzzRun("jpeg-quarter", 2_000);
        final FuzzRun pipeline = new FuzzRun("jpeg-quarter-pipeline", 2_000);
        final UnsafeBuffer dst = TestImages.nativeBuffer(64 * 50 * 3);
        final ImageSpec spec = ImageSpec.exact(64, 50, PixelFormat.RGB24); // 1/4 of 256x200
        final JpegDcDecoder dc = new JpegDcDecoder();
        // Each mutant touches an inaccessible page, after its end or before its start: a read outside it kills the
        // JVM here instead of reading stale bytes.
        try (GuardedInput src = new GuardedInput(1 << 20);
             SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
            for (int i = 0; i < 1_500; i++) {
                final Mutator.Mutant m = mutator.next();
                final long at = (i & 1) == 0 ? src.atEnd(m.bytes()) : src.atStart(m.bytes());
                direct.check(i, m, (bytes, label) -> dc.decode(at, bytes.length, LOWRES, MediaLimits.DEFAULT, label));
                pipeline.check(i, m, (bytes, label) -> d.decode(at, bytes.length, label, spec, dst.addressOffset(),
                        dst.capacity()));
            }
            assertThat(direct.problems()).as(direct.summary()).isEmpty();
            assertThat(pipeline.problems()).as(pipeline.summary()).isEmpty();
            assertThat(direct.rejected()).as(direct.summary()).isPositive();
            // Still exact after hundreds of failures and table rebuilds.
            final byte[] good = photoJpeg(512, 384, 2, 2, 0);
            try (SingleThreadImageDecoder ffmpeg = new SingleThreadImageDecoder(MediaLimits.DEFAULT, false)) {
                assertThat(ImageResizeTest.decode(d, good, QUARTER))
                        .isEqualTo(ImageResizeTest.decode(ffmpeg, good, QUARTER));
                assertThat(d.lastDcOnly()).isTrue();
            }
        } finally {
            dc.free();
        }
    }

    @Test
    void shouldRefuseScalesItDoesNotDecode() {
        final JpegDcDecoder dc = new JpegDcDecoder();
        try {
            final byte[] jpeg = photoJpeg(64, 64, 1, 1, 0);
            final long at = TestImages.offHeap(jpeg).addressOffset();
            assertThatThrownBy(() -> dc.decode(at, jpeg.length, 1, MediaLimits.DEFAULT, "x"))
                    .isInstanceOf(IllegalArgumentException.class);
            final AVFrame quarter = dc.decode(at, jpeg.length, LOWRES, MediaLimits.DEFAULT, "x");
            assertThat(quarter.width()).isEqualTo(16);
            assertThat(quarter.height()).isEqualTo(16);
        } finally {
            dc.free();
        }
    }

    private static AVFrame decodeDirect(final byte[] jpeg) {
        final JpegDcDecoder dc = new JpegDcDecoder();
        try {
            return dc.decode(TestImages.offHeap(jpeg).addressOffset(), jpeg.length, LOWRES, MediaLimits.DEFAULT,
                    "bad.jpg");
        } finally {
            dc.free();
        }
    }

    private static void assertRejects(final byte[] jpeg, final String text) {
        assertThatThrownBy(() -> decodeDirect(jpeg))
                .isInstanceOf(MediaException.class)
                .hasMessageStartingWith("bad.jpg")
                .hasMessageContaining(text);
    }

    /** The pipeline gives FFmpeg the last word: its error, with ours as a suppressed exception. */
    private static void assertPipelineRejects(final byte[] jpeg) {
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
            final MediaException e = catchThrowableOfType(MediaException.class,
                    () -> ImageResizeTest.decode(d, jpeg, QUARTER));
            assertThat(e).as("FFmpeg rejects it too").isNotNull();
            assertThat(e.getSuppressed()).hasSize(1);
            assertThat(e.getSuppressed()[0]).isInstanceOf(MediaException.class);
        }
    }
}
