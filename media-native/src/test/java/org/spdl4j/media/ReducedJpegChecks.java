package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.bytedeco.ffmpeg.avutil.AVFrame;

/**
 * The checks {@link ReducedJpegDecoder} must pass at each scale it decodes (1/8: lowres 3, 1/4: lowres 2), shared by
 * the tests of each scale: byte-equality with FFmpeg's lowres output, rejection of corrupt data directly and through
 * the decoder pipeline (where FFmpeg has the last word), a guarded fuzz run, and the block-average reference the tests
 * compare against.
 */
final class ReducedJpegChecks {
    private final int lowres;
    private final ImageSpec target;

    /**
     * @param lowres the scale: 3 (1/8) or 2 (1/4)
     * @param target an output spec for 512x384 sources that ScalePlan decodes at that scale
     */
    ReducedJpegChecks(final int lowres, final ImageSpec target) {
        this.lowres = lowres;
        this.target = target;
    }

    /** Every JPEG, in every spec: our path taken at this scale, and the bytes FFmpeg's lowres gives. */
    void assertSameBytesAsFfmpeg(final List<byte[]> jpegs, final ImageSpec... specs) {
        try (SingleThreadImageDecoder fast = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true);
             SingleThreadImageDecoder ffmpeg = new SingleThreadImageDecoder(MediaLimits.DEFAULT, false)) {
            for (int i = 0; i < jpegs.size(); i++) {
                for (final ImageSpec spec : specs) {
                    final byte[] ours = ImageResizeTest.decode(fast, jpegs.get(i), spec);
                    assertThat(fast.lastReduced()).as("jpeg %d took the reduced-scale path", i).isTrue();
                    assertThat(fast.lastLowres()).isEqualTo(lowres);
                    final byte[] reference = ImageResizeTest.decode(ffmpeg, jpegs.get(i), spec);
                    assertThat(ffmpeg.lastReduced()).isFalse();
                    assertThat(ffmpeg.lastLowres()).isEqualTo(lowres);
                    assertThat(ours).as("jpeg %d, %s", i, spec).isEqualTo(reference);
                }
            }
        }
    }

    /**
     * A JPEG whose AC table has a zero-size symbol other than EOB and ZRL ({@link TestJpegs#grayWithZeroSizeRuns}):
     * the same bytes as FFmpeg's lowres, which reads the symbol as a run of zeros, not as an end of block.
     */
    void assertSameBytesAsFfmpegForZeroSizeRuns() {
        final byte[] jpeg = TestJpegs.grayWithZeroSizeRuns();
        final ImageSpec spec = ImageSpec.exact(64 >> lowres, 64 >> lowres, PixelFormat.GRAY8);
        try (SingleThreadImageDecoder fast = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true);
             SingleThreadImageDecoder ffmpeg = new SingleThreadImageDecoder(MediaLimits.DEFAULT, false)) {
            final byte[] reference = ImageResizeTest.decode(ffmpeg, jpeg, spec);
            assertThat(ffmpeg.lastLowres()).isEqualTo(lowres);
            final byte[] ours = ImageResizeTest.decode(fast, jpeg, spec);
            assertThat(fast.lastReduced()).as("the reduced-scale path").isTrue();
            assertThat(ours).isEqualTo(reference);
        }
    }

    /** Decodes with the reduced-scale decoder alone, labelled {@code bad.jpg}. */
    AVFrame decodeDirect(final byte[] jpeg, final MediaLimits limits) {
        final ReducedJpegDecoder reduced = new ReducedJpegDecoder();
        final UnsafeBuffer in = TestImages.offHeap(jpeg);
        try {
            return reduced.decode(in.addressOffset(), jpeg.length, lowres, limits, "bad.jpg");
        } finally {
            Reference.reachabilityFence(in); // the decoder reads by address: the direct buffer must not be freed
            reduced.free();
        }
    }

    /** The decoder alone rejects it with a MediaException naming the input and saying {@code text}. */
    void assertRejects(final byte[] jpeg, final String text) {
        assertThatThrownBy(() -> decodeDirect(jpeg, MediaLimits.DEFAULT))
                .isInstanceOf(MediaException.class)
                .hasMessageStartingWith("bad.jpg")
                .hasMessageContaining(text);
    }

    /** The pipeline gives FFmpeg the last word: its error, with ours as a suppressed exception. */
    void assertPipelineRejects(final byte[] jpeg) {
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
            final MediaException e = catchThrowableOfType(MediaException.class,
                    () -> ImageResizeTest.decode(d, jpeg, target));
            assertThat(e).as("FFmpeg rejects it too").isNotNull();
            assertThat(e.getSuppressed()).hasSize(1);
            assertThat(e.getSuppressed()[0]).isInstanceOf(MediaException.class);
        }
    }

    /** A JPEG cut at two thirds of its length: rejected as truncated, directly and through the pipeline. */
    void assertRejectsTruncatedEntropyData(final byte[] jpeg) {
        final byte[] cut = Arrays.copyOf(jpeg, jpeg.length * 2 / 3);
        assertRejects(cut, "truncated");
        assertPipelineRejects(cut);
    }

    /**
     * Bits no Huffman code starts with, {@code scanOffset} bytes into the entropy data (stuffed 0xFF bytes: a run
     * of 1 bits, which no JPEG code is): rejected directly and through the pipeline. Changes {@code jpeg}.
     */
    void assertRejectsInvalidHuffmanCodesAt(final byte[] jpeg, final int scanOffset) {
        final int at = TestJpegs.scanData(jpeg) + scanOffset;
        for (int i = 0; i < 16; i += 2) {
            jpeg[at + i] = (byte) 0xFF;
            jpeg[at + i + 1] = 0;
        }
        assertRejects(jpeg, "Huffman code");
        assertPipelineRejects(jpeg);
    }

    /** Restart marker {@code n} renumbered out of sequence: rejected, naming the one expected. Changes {@code jpeg}. */
    void assertRejectsRestartOutOfSequence(final byte[] jpeg, final int n) {
        final int rst = TestJpegs.find(jpeg, 0xD0 + n, TestJpegs.scanData(jpeg));
        jpeg[rst + 1] = (byte) (0xD0 + ((n + 4) & 7));
        assertRejects(jpeg, "RST" + n + " expected");
    }

    /**
     * Mutants of {@code seeds}, each placed against an inaccessible page (after its end or before its start: a read
     * outside it kills the JVM instead of reading stale bytes), through the decoder alone and through the pipeline
     * into {@code spec}: each decodes or throws a MediaException; some are rejected; afterwards {@code good} still
     * decodes to FFmpeg's bytes on the reduced path (tables rebuilt many times over).
     */
    void assertSurvivesMutants(final String name, final long seed, final List<byte[]> seeds, final int iterations,
                               final ImageSpec spec, final byte[] good) {
        final Mutator mutator = new Mutator(seed, seeds);
        final FuzzRun direct = new FuzzRun(name, 2_000);
        final FuzzRun pipeline = new FuzzRun(name + "-pipeline", 2_000);
        final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
        final ReducedJpegDecoder reduced = new ReducedJpegDecoder();
        try (GuardedInput src = new GuardedInput(1 << 20);
             SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
            for (int i = 0; i < iterations; i++) {
                final Mutator.Mutant m = mutator.next();
                final long at = (i & 1) == 0 ? src.atEnd(m.bytes()) : src.atStart(m.bytes());
                direct.check(i, m, (bytes, label) -> reduced.decode(at, bytes.length, lowres, MediaLimits.DEFAULT, label));
                pipeline.check(i, m, (bytes, label) -> d.decode(at, bytes.length, label, spec, dst.addressOffset(),
                        dst.capacity()));
            }
            assertThat(direct.problems()).as(direct.summary()).isEmpty();
            assertThat(pipeline.problems()).as(pipeline.summary()).isEmpty();
            assertThat(direct.rejected()).as(direct.summary()).isPositive();
            try (SingleThreadImageDecoder ffmpeg = new SingleThreadImageDecoder(MediaLimits.DEFAULT, false)) {
                assertThat(ImageResizeTest.decode(d, good, target))
                        .isEqualTo(ImageResizeTest.decode(ffmpeg, good, target));
                assertThat(d.lastReduced()).isTrue();
            }
        } finally {
            reduced.free();
        }
    }

    /** {@return BT.601 luma of interleaved RGB, rounded} */
    static byte[] luma(final byte[] rgb) {
        final byte[] luma = new byte[rgb.length / 3];
        for (int i = 0; i < luma.length; i++) {
            luma[i] = (byte) Math.round(0.299 * (rgb[3 * i] & 0xFF) + 0.587 * (rgb[3 * i + 1] & 0xFF)
                    + 0.114 * (rgb[3 * i + 2] & 0xFF));
        }
        return luma;
    }

    /** {@return the means of {@code block} x {@code block} squares of an interleaved image, rounded} */
    static byte[] boxAverage(final byte[] src, final int w, final int h, final int channels, final int block) {
        final int bw = w / block;
        final byte[] out = new byte[bw * (h / block) * channels];
        for (int by = 0; by < h / block; by++) {
            for (int bx = 0; bx < bw; bx++) {
                for (int c = 0; c < channels; c++) {
                    int sum = 0;
                    for (int y = 0; y < block; y++) {
                        for (int x = 0; x < block; x++) {
                            sum += src[((by * block + y) * w + bx * block + x) * channels + c] & 0xFF;
                        }
                    }
                    out[(by * bw + bx) * channels + c] = (byte) Math.round(sum / (double) (block * block));
                }
            }
        }
        return out;
    }
}
