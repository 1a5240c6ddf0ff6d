package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Frames asked for by index or time come back exactly, in containers whose seeks do not land on a keyframe at or
 * before the target: MPEG-TS and MPEG-PS (FFmpeg seeks them by a binary search over packet timestamps, which lands on
 * any packet, often a P-frame) and MP4/MOV with B-frames (the demuxer seeks by decode time, so the B-frames just
 * before a keyframe, decoded after it, are skipped). Each clip shows its frame index as 8 bands.
 */
@Timeout(120)
class VideoSeekTest {
    private static final int W = 160;
    private static final int H = 96;
    private static final int FPS = 25;
    private static final ImageSpec GRAY = ImageSpec.exact(W, H, PixelFormat.GRAY8);

    @TempDir
    static Path dir;

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    static int[] indicesIn(final UnsafeBuffer dst, final int frames) {
        final byte[] all = TestImages.bytes(dst, frames * GRAY.bytes());
        return IntStream.range(0, frames).map(t -> FfmpegTestEncoder.frameIndex(all, t * GRAY.bytes(), W, H, 1))
                .toArray();
    }

    /** {@return the frames the reader writes for {@code indices}, in one request} */
    static int[] read(final SingleThreadVideoReader r, final long... indices) {
        final UnsafeBuffer dst = TestImages.nativeBuffer(indices.length * GRAY.bytes());
        assertThat(r.readFrames(indices, GRAY, dst.addressOffset(), dst.capacity())).isEqualTo(indices.length);
        return indicesIn(dst, indices.length);
    }

    /** {@return the frame a fresh reader writes for {@code index}} */
    static int readAlone(final Path clip, final long index) {
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            return read(r, index)[0];
        }
    }

    /**
     * GOPs of 2.4 s: a seek lands on a P-frame and the decoder drops frames up to the next keyframe, so index 1 gave
     * frame 60; in the last GOP nothing decoded after the seek (nor after the old fixed one-second step back), so
     * indices 140 to 149 and "past the end" threw. mpeg2video in TS also lost the first GOP on a seek to the start.
     */
    @ParameterizedTest
    @CsvSource({"mpeg2video, ts", "libopenh264, ts", "mpeg2video, mpg"})
    void shouldReturnTheRequestedFrameOfAnMpegTsOrPsFileWithLongGops(final String encoder, final String container) {
        final Path clip = dir.resolve("gop60-" + encoder + "." + container);
        FfmpegTestEncoder.video(clip, encoder, W, H, 150, FPS, 60);
        for (final long i : new long[] {0, 1, 50, 59, 60, 100, 120, 140, 149, 150, 250}) {
            assertThat(readAlone(clip, i)).as("index %d", i).isEqualTo((int) Math.min(i, 149));
        }
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(read(r, 140, 3, 75, 149, 0, 61, 500)).containsExactly(140, 3, 75, 149, 0, 61, 149);
            assertThat(read(r, 10)).containsExactly(10);
            assertThat(read(r, 145, 1)).containsExactly(145, 1);
        }
    }

    /**
     * MPEG-4 part 2 in TS outputs garbage for the P-frames after a seek onto one (their reference is missing); with
     * B-frames, its first picture after a flush is a stale one, stamped as if it were the frame sought, and a seek
     * back to the start ended there.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void shouldReturnCleanFramesOfMpeg4InMpegTs(final int maxBFrames) {
        final Path clip = dir.resolve("mpeg4-b" + maxBFrames + ".ts");
        FfmpegTestEncoder.video(clip, "mpeg4", W, H, 100, FPS, 12, maxBFrames);
        for (final long i : new long[] {5, 30, 47, 70, 99}) {
            assertThat(readAlone(clip, i)).as("index %d", i).isEqualTo((int) i);
        }
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(read(r, 61, 9, 60, 9, 5)).containsExactly(61, 9, 60, 9, 5);
            assertThat(read(r, 9, 18, 4, 15, 54)).containsExactly(9, 18, 4, 15, 54);
            assertThat(read(r, 77, 36, 18, 27, 69)).containsExactly(77, 36, 18, 27, 69);
        }
    }

    /**
     * A TS cut mid-GOP (a recording started anywhere) begins with a P-frame that carries no key flag; the reader took
     * that to mean the decoder marks no keyframes, so after a seek onto a P-frame it returned MPEG-4 part 2's
     * reference-less garbage (26 of the 49 indices from 51 on). Whether to skip frames up to a keyframe after a seek
     * is decided from the codec.
     */
    @Test
    void shouldReturnCleanFramesOfAnMpeg4TsThatStartsMidGop() throws IOException {
        final Path full = dir.resolve("mid-gop-full.ts");
        FfmpegTestEncoder.video(full, "mpeg4", W, H, 100, FPS, 12);
        final byte[] bytes = Files.readAllBytes(full);
        final Path clip = Files.write(dir.resolve("mid-gop.ts"),
                Arrays.copyOfRange(bytes, bytes.length / 5 / 188 * 188, bytes.length));
        final UnsafeBuffer dst = TestImages.nativeBuffer(100 * GRAY.bytes());
        final int[] sequence;
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            sequence = indicesIn(dst, r.readEvery(1, 100, GRAY, dst.addressOffset(), dst.capacity()));
        }
        assertThat(sequence.length).isGreaterThan(60);
        for (int i = sequence.length / 2; i < sequence.length; i++) {
            assertThat(readAlone(clip, i)).as("index %d", i).isEqualTo(sequence[i]);
        }
    }

    /**
     * An MPEG-PS seek to just after a keyframe lands on it, but when its packet carries no pts the demuxer stamps it
     * (and the frames up to the next pts) half a frame late, so index 61 gave frame 60. Such a landing is not
     * trusted: the seek goes further back.
     */
    @Test
    void shouldReturnEveryFrameOfAnMpegPsFileAlone() {
        final Path clip = dir.resolve("every.mpg");
        FfmpegTestEncoder.video(clip, "mpeg2video", W, H, 80, FPS, 30);
        for (long i = 0; i <= 80; i++) {
            assertThat(readAlone(clip, i)).as("index %d", i).isEqualTo((int) Math.min(i, 79));
        }
    }

    /**
     * With B-frames, B10 and B11 are decoded after I12; a seek for 10 lands on I12 and the decoder cannot decode
     * them without P9, so I12 came back for indices 10 and 11.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mp4", "mov"})
    void shouldReturnTheBFramesJustBeforeAKeyframe(final String container) {
        final Path clip = dir.resolve("bframes." + container);
        FfmpegTestEncoder.video(clip, "mpeg4", W, H, 60, FPS, 12, 2);
        for (final long i : new long[] {9, 10, 11, 12, 22, 23, 34, 35, 47, 59}) {
            assertThat(readAlone(clip, i)).as("index %d", i).isEqualTo((int) i);
        }
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(read(r, 47, 11, 10, 35)).containsExactly(47, 11, 10, 35);
        }
    }

    /** readEvery after a timestamp request starts again at frame 0 (a TS seek to the start landed on frame 12). */
    @ParameterizedTest
    @ValueSource(strings = {"ts", "mp4"})
    void shouldRestartReadEveryAtTheFirstFrame(final String container) {
        final Path clip = dir.resolve("restart." + container);
        FfmpegTestEncoder.video(clip, "mpeg2video", W, H, 50, FPS, 12);
        final UnsafeBuffer dst = TestImages.nativeBuffer(60 * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(read(r, 30)).containsExactly(30);
            final int n = r.readEvery(1, 60, GRAY, dst.addressOffset(), dst.capacity());
            assertThat(indicesIn(dst, n)).containsExactly(IntStream.range(0, 50).toArray());
        }
    }

    /**
     * AVI stores decode times only; with B-frames the decoder's one-frame delay makes frame k's timestamp k + 1 while
     * the stream's start time stays 0, so index i (time i / fps) gave frame i - 1 and readFrames disagreed with
     * readEvery. Times count from the first frame decoded.
     */
    @Test
    void shouldIndexAnAviWithBFramesFromItsFirstFrame() {
        final Path clip = dir.resolve("bframes.avi");
        FfmpegTestEncoder.video(clip, "mpeg4", W, H, 60, FPS, 12, 2);
        for (final long i : new long[] {0, 1, 2, 10, 11, 12, 13, 30, 58, 59}) {
            assertThat(readAlone(clip, i)).as("index %d", i).isEqualTo((int) i);
        }
        final long[] all = IntStream.range(0, 60).asLongStream().toArray();
        final UnsafeBuffer dst = TestImages.nativeBuffer(60 * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(read(r, 1, 2, 30, 59)).containsExactly(1, 2, 30, 59);
            assertThat(read(r, all)).containsExactly(IntStream.range(0, 60).toArray());
            final int n = r.readEvery(1, 60, GRAY, dst.addressOffset(), dst.capacity());
            assertThat(indicesIn(dst, n)).containsExactly(IntStream.range(0, 60).toArray());
            assertThat(r.readFramesAt(new double[] {59 / (double) FPS}, GRAY, dst.addressOffset(), dst.capacity()))
                    .isEqualTo(1);
            assertThat(indicesIn(dst, 1)).containsExactly(59);
        }
    }

    /**
     * A raw H.264 stream cannot seek (av_seek_frame fails): the reader decodes forward to targets ahead of it, even
     * far ahead, and goes back by reopening the file. A fresh reader asked for frame 0 used to seek and throw.
     */
    @Test
    void shouldReadAnyFrameOfARawStreamThatCannotSeek() {
        final Path clip = dir.resolve("clip.h264");
        FfmpegTestEncoder.video(clip, "libopenh264", W, H, 100, FPS, 25);
        assertThat(readAlone(clip, 0)).isZero();
        assertThat(readAlone(clip, 90)).isEqualTo(90);
        final UnsafeBuffer dst = TestImages.nativeBuffer(100 * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(read(r, 3)).containsExactly(3);
            assertThat(read(r, 90)).containsExactly(90);
            assertThat(read(r, 70, 10, 99)).containsExactly(70, 10, 99);
            assertThat(read(r, 5)).containsExactly(5);
            assertThat(r.seeks).as("a raw stream's failed seek is not retried after a reopen").isEqualTo(1);
            final int n = r.readEvery(1, 100, GRAY, dst.addressOffset(), dst.capacity());
            assertThat(indicesIn(dst, n)).containsExactly(IntStream.range(0, 100).toArray());
        }
        // times half-way between two frames give the earlier, as with timestamps: frame k is timed k / fps exactly
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(r.readFramesAt(new double[] {0.5, 1.3, 2.5, 3.22, 3.9}, GRAY, dst.addressOffset(),
                    dst.capacity())).isEqualTo(5);
            assertThat(indicesIn(dst, 5)).containsExactly(12, 32, 62, 80, 97);
        }
    }

    /**
     * A stream that declares no duration (raw H.264) is held to the duration limit by its decoded timestamps: it
     * used to pass any limit, so a 10 s stream opened under a 1 s limit decoded to its end.
     */
    @Test
    void shouldHoldAStreamWithoutADeclaredDurationToTheDurationLimitWhileDecoding() {
        final Path clip = dir.resolve("ten-seconds.h264");
        FfmpegTestEncoder.video(clip, "libopenh264", W, H, 250, FPS, 50);
        final MediaLimits oneSecond = new MediaLimits(1 << 20, 300, 1, 1 << 20);
        final UnsafeBuffer dst = TestImages.nativeBuffer(250 * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, oneSecond)) {
            assertThat(r.info().durationSeconds()).isZero();
            assertThat(r.readFramesAt(new double[] {0.48}, GRAY, dst.addressOffset(), dst.capacity())).isEqualTo(1);
            assertThat(indicesIn(dst, 1)).containsExactly(12);
            assertThatThrownBy(() -> r.readFramesAt(new double[] {9.0}, GRAY, dst.addressOffset(), dst.capacity()))
                    .isInstanceOf(MediaException.class).hasMessageStartingWith(clip + ": ")
                    .hasMessageContaining("limit of 1 s");
        }
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, oneSecond)) {
            assertThatThrownBy(() -> r.readEvery(1, 250, GRAY, dst.addressOffset(), dst.capacity()))
                    .isInstanceOf(MediaException.class).hasMessageContaining("limit of 1 s");
        }
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(r.readEvery(1, 250, GRAY, dst.addressOffset(), dst.capacity())).isEqualTo(250);
        }
    }

    /**
     * A raw stream of exactly the limit decodes (frames without timestamps were timed by a running sum of periods:
     * 25 x 0.04 s came to 1.0000000000000002 s, "past 1.0 s, over the limit of 1 s"), one frame more does not.
     */
    @Test
    void shouldDecodeAStreamWithoutADeclaredDurationOfExactlyTheDurationLimit() {
        final Path clip = dir.resolve("one-second.h264");
        FfmpegTestEncoder.video(clip, "libopenh264", W, H, FPS, FPS, FPS);
        final Path longer = dir.resolve("one-frame-over.h264");
        FfmpegTestEncoder.video(longer, "libopenh264", W, H, FPS + 1, FPS, FPS);
        final MediaLimits oneSecond = new MediaLimits(1 << 20, 300, 1, 1 << 20);
        final UnsafeBuffer dst = TestImages.nativeBuffer(30 * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, oneSecond)) {
            assertThat(r.info().durationSeconds()).isZero();
            assertThat(r.readEvery(1, 30, GRAY, dst.addressOffset(), dst.capacity())).isEqualTo(FPS);
        }
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(longer, oneSecond)) {
            assertThatThrownBy(() -> r.readEvery(1, 30, GRAY, dst.addressOffset(), dst.capacity()))
                    .isInstanceOf(MediaException.class).hasMessageContaining("limit of 1 s");
        }
    }

    /**
     * A target far past the end of an input that declares no duration (a one-frame TS) cannot be clamped to the end:
     * its seek timestamp saturates, and each step back repeated the same futile seek, about log2 of the target's
     * ticks times (1004 seeks for 1e300 s). A step back that does not move the seek goes to the start at once.
     */
    @Test
    void shouldNotRepeatASeekThatAStepBackDoesNotMove() {
        final Path clip = dir.resolve("one-frame.ts");
        FfmpegTestEncoder.video(clip, "mpeg2video", W, H, 1, FPS, 12);
        final UnsafeBuffer dst = TestImages.nativeBuffer(GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(r.info().durationSeconds()).isZero();
            assertThat(r.readFramesAt(new double[] {1e300}, GRAY, dst.addressOffset(), dst.capacity())).isEqualTo(1);
            assertThat(indicesIn(dst, 1)).containsExactly(0);
            assertThat(r.seeks).isLessThanOrEqualTo(4);
        }
    }

    /**
     * A fresh reader asked for a frame within 2 s of the start seeks to the keyframe before it when the container's
     * index has one after the first frame: index 50 (a keyframe at 2 s) used to be decoded to from frame 0, 51
     * packets, on every one-reader-per-clip access.
     */
    @Test
    void shouldSeekAFreshReaderToAnIndexedKeyframeNearTheStart() {
        final Path clip = dir.resolve("gop25.mp4");
        FfmpegTestEncoder.video(clip, "mpeg4", W, H, 250, FPS, 25);
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(read(r, 50)).containsExactly(50);
            assertThat(r.packetsSent()).isLessThanOrEqualTo(5);
        }
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(read(r, 30)).containsExactly(30);
            assertThat(r.packetsSent()).isLessThanOrEqualTo(10);
        }
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(read(r, 20)).containsExactly(20);
            assertThat(r.packetsSent()).isLessThanOrEqualTo(23);
            assertThat(r.seeks).isZero();
        }
    }

    /**
     * One failed seek of a seekable file used to make the reader reopen the file for every later target before its
     * position: the reopened input seeks again, and only a seek that fails again reopens it.
     */
    @Test
    void shouldSeekAgainAfterTheReopenThatAFailedSeekCost() {
        final Path clip = dir.resolve("seek-once-failed.mp4");
        FfmpegTestEncoder.video(clip, "mpeg4", W, H, 250, FPS, 25);
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(read(r, 200)).containsExactly(200);
            r.failNextSeeks = 1;
            assertThat(read(r, 100)).containsExactly(100);
            assertThat(r.reopens).isEqualTo(1);
            assertThat(read(r, 50)).containsExactly(50);
            assertThat(read(r, 10)).containsExactly(10);
            assertThat(read(r, 240)).containsExactly(240);
            assertThat(r.reopens).as("seeks after the reopen").isEqualTo(1);
            r.failNextSeeks = 1;
            assertThat(read(r, 5)).containsExactly(5);
            assertThat(r.reopens).as("a seek that fails again").isEqualTo(2);
        }
    }
}
