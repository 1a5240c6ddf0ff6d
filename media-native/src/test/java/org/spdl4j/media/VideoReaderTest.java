package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Video frames come back as the right frames: each test clip encodes its frame index as 8 black/white bands, which
 * survive lossy coding, so every decoded frame identifies itself.
 */
@Timeout(60)
class VideoReaderTest {
    private static final int W = 160;
    private static final int H = 96;
    private static final int FRAMES = 100;
    private static final int FPS = 25;
    private static final ImageSpec GRAY = ImageSpec.exact(W, H, PixelFormat.GRAY8);

    @TempDir
    static Path dir;
    static Path mp4;
    static Path webm;

    @BeforeAll
    static void encodeClips() {
        mp4 = dir.resolve("index.mp4");
        FfmpegTestEncoder.video(mp4, "mpeg4", W, H, FRAMES, FPS, 12);
        webm = dir.resolve("index.webm");
        FfmpegTestEncoder.video(webm, "libvpx-vp9", W, H, 40, FPS, 12);
    }

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    private static int[] indicesIn(final UnsafeBuffer dst, final int frames, final ImageSpec spec) {
        final byte[] all = TestImages.bytes(dst, frames * spec.bytes());
        final int[] out = new int[frames];
        for (int t = 0; t < frames; t++) {
            out[t] = FfmpegTestEncoder.frameIndex(all, t * spec.bytes(), spec.width(), spec.height(),
                    spec.format().channels());
        }
        return out;
    }

    @Test
    void shouldReportStreamInfo() {
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(mp4, MediaLimits.DEFAULT)) {
            final VideoStreamInfo info = r.info();
            assertThat(info.width()).isEqualTo(W);
            assertThat(info.height()).isEqualTo(H);
            assertThat(info.fps()).isCloseTo(FPS, within(0.01));
            assertThat(info.frameCount()).isEqualTo(FRAMES);
            assertThat(info.durationSeconds()).isCloseTo(FRAMES / (double) FPS, within(0.05));
            assertThat(info.codec()).isEqualTo("mpeg4");
            assertThat(info.pixelFormat()).isEqualTo("yuv420p");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mp4", "webm"})
    void shouldReturnTheFramesShownAtTheRequestedTimes(final String kind) {
        final Path clip = kind.equals("mp4") ? mp4 : webm;
        final double[] seconds = {1.2, 0.0, 0.44, 1.0, 1.04, 0.4, 0.4};
        final UnsafeBuffer dst = TestImages.nativeBuffer(seconds.length * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(r.readFramesAt(seconds, GRAY, dst.addressOffset(), dst.capacity())).isEqualTo(seconds.length);
        }
        assertThat(indicesIn(dst, seconds.length, GRAY)).containsExactly(30, 0, 11, 25, 26, 10, 10);
    }

    @Test
    void shouldReturnFramesByIndexIntoRgbSlots() {
        final long[] indices = {99, 0, 13, 12, 50, 98};
        final ImageSpec rgb = ImageSpec.exact(W / 2, H / 2, PixelFormat.RGB24);
        final UnsafeBuffer dst = TestImages.nativeBuffer(indices.length * rgb.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(mp4, MediaLimits.DEFAULT)) {
            r.readFrames(indices, rgb, dst.addressOffset(), dst.capacity());
        }
        assertThat(Arrays.stream(indicesIn(dst, indices.length, rgb)).asLongStream().toArray()).containsExactly(indices);
    }

    /**
     * Targets past the end get the last frame, and the request's other slots are still filled: a target just past
     * the end (index 100 of 100, a frame count estimated from duration x fps), one far past it, and one in the
     * middle, in one request and each alone.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mp4", "webm"})
    void shouldGiveTheLastFrameForTargetsPastTheEnd(final String kind) {
        final Path clip = kind.equals("mp4") ? mp4 : webm;
        final int frames = kind.equals("mp4") ? FRAMES : 40;
        final long[] indices = {frames, 10, frames + 500, frames - 1};
        final UnsafeBuffer dst = TestImages.nativeBuffer(indices.length * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            r.readFrames(indices, GRAY, dst.addressOffset(), dst.capacity());
            assertThat(indicesIn(dst, indices.length, GRAY)).containsExactly(frames - 1, 10, frames - 1, frames - 1);
        }
        for (final double seconds : new double[] {frames / (double) FPS + 0.02, 60.0}) {
            final UnsafeBuffer one = TestImages.nativeBuffer(GRAY.bytes());
            try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
                r.readFramesAt(new double[] {seconds}, GRAY, one.addressOffset(), one.capacity());
            }
            assertThat(indicesIn(one, 1, GRAY)).as("alone at %s s", seconds).containsExactly(frames - 1);
        }
    }

    /**
     * A variable frame rate: frames 0 to 19 every 100 ms, then 20 to 139 every 1/60 s. The frame nearest each time
     * comes back, by the frames' own timestamps: the choice used to go by one guessed rate (10 fps in MKV, so 2.5 s
     * gave frame 47 although frame 50 is stamped 2.5 s exactly; 60 fps in MP4, so 0.55 s gave frame 6, not 5 shown
     * then). A time half-way between two frames gives the earlier, the one shown at that time.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mkv", "mp4"})
    void shouldReturnTheFrameNearestEachTimeAtAVariableFrameRate(final String container) {
        final long[] pts = new long[140];
        for (int i = 0; i < pts.length; i++) {
            pts[i] = i < 20 ? 600L * i : 12_000 + 100L * (i - 20); // in 1/6000 s
        }
        final Path clip = dir.resolve("vfr." + container);
        FfmpegTestEncoder.videoAt(clip, "mpeg4", W, H, pts, 6000, 10, 12);
        final double[] seconds = {0.0, 0.55, 1.05, 1.04, 1.96, 2.01, 2.5, 3.0, 3.99, 30.0};
        final int[] expected = {0, 5, 10, 10, 20, 21, 50, 80, 139, 139};
        for (int i = 0; i < seconds.length; i++) {
            final UnsafeBuffer one = TestImages.nativeBuffer(GRAY.bytes());
            try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
                r.readFramesAt(new double[] {seconds[i]}, GRAY, one.addressOffset(), one.capacity());
            }
            assertThat(indicesIn(one, 1, GRAY)).as("alone at %s s", seconds[i]).containsExactly(expected[i]);
        }
        final UnsafeBuffer dst = TestImages.nativeBuffer(seconds.length * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            r.readFramesAt(seconds, GRAY, dst.addressOffset(), dst.capacity());
        }
        assertThat(indicesIn(dst, seconds.length, GRAY)).containsExactly(expected);
    }

    @Test
    void shouldReadEveryKthFrameInChunks() {
        final int k = 3;
        final int chunk = 8;
        final UnsafeBuffer dst = TestImages.nativeBuffer(chunk * GRAY.bytes());
        final StringBuilder seen = new StringBuilder();
        final StringBuilder expected = new StringBuilder();
        for (int i = 0; i < FRAMES; i += k) {
            expected.append(i).append(',');
        }
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(mp4, MediaLimits.DEFAULT)) {
            int n;
            int chunks = 0;
            while ((n = r.readEvery(k, chunk, GRAY, dst.addressOffset(), dst.capacity())) > 0) {
                chunks++;
                for (final int idx : indicesIn(dst, n, GRAY)) {
                    seen.append(idx).append(',');
                }
            }
            assertThat(chunks).isEqualTo((FRAMES / k + 1 + chunk - 1) / chunk);
        }
        assertThat(seen.toString()).isEqualTo(expected.toString());
    }

    /**
     * {@code readEvery(k, 0, ...)} (or a negative count) wrote nothing and returned 0, which is how the end of the
     * stream reads: a {@code while (readEvery(...) > 0)} loop given a zero chunk size stopped at once, as if the
     * clip had no frames.
     */
    @Test
    void shouldRejectAFrameCountBelowOneRatherThanReportTheEnd() {
        final UnsafeBuffer dst = TestImages.nativeBuffer(GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(mp4, MediaLimits.DEFAULT)) {
            assertThatThrownBy(() -> r.readEvery(1, 0, GRAY, dst.addressOffset(), dst.capacity()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxFrames must be >= 1: 0");
            assertThatThrownBy(() -> r.readEvery(1, -2, GRAY, dst.addressOffset(), dst.capacity()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxFrames must be >= 1: -2");
            assertThat(r.readEvery(1, 1, GRAY, dst.addressOffset(), dst.capacity())).isEqualTo(1);
            assertThat(indicesIn(dst, 1, GRAY)).containsExactly(0);
        }
    }

    @Test
    void shouldEnforceFrameDurationAndPixelLimits() {
        final UnsafeBuffer dst = TestImages.nativeBuffer(4 * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(mp4, new MediaLimits(1 << 20, 3, 60, 1 << 20))) {
            assertThatThrownBy(() -> r.readFrames(new long[] {0, 1, 2, 3}, GRAY, dst.addressOffset(), dst.capacity()))
                    .isInstanceOf(MediaException.class).hasMessageContaining("4 frames requested; the limit is 3");
        }
        assertThatThrownBy(() -> SingleThreadVideoReader.open(mp4, new MediaLimits(1 << 20, 10, 2, 1 << 20)))
                .isInstanceOf(MediaException.class).hasMessageContaining("exceeds the limit of 2 s");
        // MPEG-4 part 2 in MP4 gives its size only in the bitstream, which stream info no longer decodes over the
        // limit: the message names the limit (and the size, where the container declares it)
        assertThatThrownBy(() -> SingleThreadVideoReader.open(mp4, new MediaLimits(W * H - 1, 10, 60, 1 << 20)))
                .isInstanceOf(MediaException.class).hasMessageContaining("limit of " + (W * H - 1) + " pixels");
    }

    /**
     * The pixel limit holds before anything is decoded: avformat_find_stream_info, which runs when the file is opened,
     * decodes the first frames of an H.264 stream (to learn its frame delay) with decoders that had no max_pixels (the
     * limit was checked after it), so a clip far over the limit took 23 to 57 MB of full-size frame buffers before
     * being refused (a 4K clip here; a forged header gets to ~16k x 16k). Native memory in use is sampled meanwhile.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mp4", "ts"})
    void shouldRefuseAClipOverThePixelLimitWithoutDecodingItsFullSizeFrames(final String container)
            throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(NativeHeap.inUseBytes().isPresent(), "needs glibc's mallinfo2");
        final Path clip = dir.resolve("large." + container);
        FfmpegTestEncoder.video(clip, "libopenh264", 3840, 2160, 4, FPS, 4); // 12 MiB a frame (yuv420p)
        final MediaLimits oneMegapixel = new MediaLimits(1 << 20, 10, 60, 1 << 20);
        final long before = NativeHeap.inUseBytes().orElseThrow();
        final java.util.concurrent.atomic.AtomicLong peak = new java.util.concurrent.atomic.AtomicLong(before);
        final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        final Thread sampler = new Thread(() -> {
            while (!done.get()) {
                peak.accumulateAndGet(NativeHeap.inUseBytes().orElseThrow(), Math::max);
            }
        });
        sampler.start();
        try {
            assertThatThrownBy(() -> SingleThreadVideoReader.open(clip, oneMegapixel))
                    .isInstanceOf(MediaException.class).hasMessageStartingWith(clip + ": ")
                    .hasMessageContaining("declared size 3840x2160 exceeds the limit of " + (1 << 20) + " pixels");
        } finally {
            done.set(true);
            sampler.join();
        }
        assertThat(peak.get() - before).as("native bytes in use while refusing a 3840x2160 clip (peak growth)")
                .isLessThan(12L << 20);
    }

    /**
     * MPEG-4 part 2 in Matroska: the container declares the size, the decoder that stream info opens refuses the
     * stream over the limit and leaves it 0 x 0; the refusal still names the declared size.
     */
    @Test
    void shouldNameTheDeclaredSizeOfAStreamWhoseDecoderRefusedIt() {
        final Path clip = dir.resolve("declared.mkv");
        FfmpegTestEncoder.video(clip, "mpeg4", W, H, 5, FPS, 5);
        assertThatThrownBy(() -> SingleThreadVideoReader.open(clip, new MediaLimits(W * H - 1, 10, 60, 1 << 20)))
                .isInstanceOf(MediaException.class)
                .hasMessageContaining("declared size 160x96 exceeds the limit of " + (W * H - 1) + " pixels");
    }

    /**
     * NaN, negative and infinite times and negative indices are caller bugs (a 0/0 frame rate, an off-by-one): they
     * used to give some frame silently (NaN the current one, -5 s frame 0, index -7 frame 0).
     */
    @Test
    void shouldRejectNanNegativeOrInfiniteTimesAndNegativeIndices() {
        final UnsafeBuffer dst = TestImages.nativeBuffer(3 * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(mp4, MediaLimits.DEFAULT)) {
            for (final double bad : new double[] {Double.NaN, -5.0, -Double.MIN_VALUE, Double.POSITIVE_INFINITY,
                    Double.NEGATIVE_INFINITY}) {
                assertThatThrownBy(() -> r.readFramesAt(new double[] {1.0, 0.5, bad}, GRAY, dst.addressOffset(),
                        dst.capacity())).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("seconds[2] is " + bad);
            }
            assertThatThrownBy(() -> r.readFrames(new long[] {-7, 3}, GRAY, dst.addressOffset(), dst.capacity()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("indices[0] is -7");
            assertThat(r.readFramesAt(new double[] {0.0, 1e300}, GRAY, dst.addressOffset(), dst.capacity()))
                    .isEqualTo(2);
            assertThat(indicesIn(dst, 2, GRAY)).containsExactly(0, FRAMES - 1);
            assertThat(r.readFrames(new long[] {Long.MAX_VALUE, 1}, GRAY, dst.addressOffset(), dst.capacity()))
                    .isEqualTo(2);
            assertThat(indicesIn(dst, 2, GRAY)).containsExactly(FRAMES - 1, 1);
        }
    }

    @Test
    void shouldThrowMediaExceptionForBrokenFiles() throws Exception {
        final byte[] good = Files.readAllBytes(mp4);
        final byte[] random = new byte[4096];
        new java.util.Random(3).nextBytes(random);
        final byte[][] bad = {new byte[0], Arrays.copyOf(good, good.length / 2), random};
        for (int i = 0; i < bad.length; i++) {
            final Path p = dir.resolve("bad" + i + ".mp4");
            Files.write(p, bad[i]);
            assertThatThrownBy(() -> {
                final UnsafeBuffer out = TestImages.nativeBuffer(4 * GRAY.bytes()); // held: written to by address
                try (SingleThreadVideoReader r = SingleThreadVideoReader.open(p, MediaLimits.DEFAULT)) {
                    r.readEvery(1, 4, GRAY, out.addressOffset(), 4L * GRAY.bytes());
                } finally {
                    java.lang.ref.Reference.reachabilityFence(out);
                }
            }).as(p.toString()).isInstanceOf(MediaException.class).hasMessageStartingWith(p.toString());
        }
    }
}
