package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A stream's duration and frame count are its own length (first frame's start to last frame's end), whether its
 * timestamps start at 0 or later (a clip cut from a longer recording, written with the muxer's output_ts_offset)
 * and whatever the container stores as its "duration": a span (MP4, MPEG-TS, FLV; Matroska by mkvmerge), or the end
 * timestamp (Matroska written by FFmpeg, the NUT index's last pts).
 */
@Timeout(120)
class StartTimeDurationTest {
    private static final int W = 64;
    private static final int H = 48;
    private static final int FRAMES = 60;
    private static final int FPS = 25;
    private static final double START = 10;
    private static final ImageSpec GRAY = ImageSpec.exact(W, H, PixelFormat.GRAY8);
    /** 2.4 s clips, a 3 s limit: a duration read as the end time (12.4 s) would refuse them. */
    private static final MediaLimits THREE_SECONDS = new MediaLimits(MediaLimits.DEFAULT.maxPixels(),
            MediaLimits.DEFAULT.maxFrames(), 3, MediaLimits.DEFAULT.maxInputBytes());

    @TempDir
    Path dir;

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    static Stream<Arguments> videoCases() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String ext : new String[] {"mp4", "mov", "mkv", "webm", "nut", "ts", "avi", "flv"}) {
            cases.add(Arguments.of(ext, 0.0));
            cases.add(Arguments.of(ext, START));
        }
        return cases.stream();
    }

    private static String videoEncoder(final String ext) {
        return switch (ext) {
            case "webm" -> "libvpx-vp9";
            case "flv" -> "flv";
            default -> "mpeg4";
        };
    }

    /**
     * Duration, frame count and the duration limit agree with the frames the stream holds, and uniformly sampled
     * indices (as ClipFrameWriter takes them from the frame count) give distinct frames across the whole clip, not
     * copies of the last one.
     *
     * <p>AVI stores no start time: FFmpeg's muxer writes the offset as empty chunks after the first frame (the first
     * frame held for 10 s), so that file really is 12.4 s of 310 frame slots, and is checked as such.
     */
    @ParameterizedTest(name = "{0} starting at {1} s")
    @MethodSource("videoCases")
    void shouldReportTheVideoStreamsOwnLengthWhateverItsStartTime(final String ext, final double start) {
        final Path clip = dir.resolve("clip." + ext);
        FfmpegTestEncoder.videoStartingAt(clip, videoEncoder(ext), W, H, FRAMES, FPS, 12, start);
        final boolean held = ext.equals("avi") && start > 0;
        final long slots = held ? FRAMES + Math.round(start * FPS) : FRAMES;
        final long[] sampled = new long[8];
        for (int k = 0; k < sampled.length; k++) {
            sampled[k] = k * (slots - 1) / (sampled.length - 1);
        }
        final UnsafeBuffer dst = TestImages.nativeBuffer(sampled.length * GRAY.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            assertThat(r.info().durationSeconds()).as("duration").isCloseTo(slots / (double) FPS, within(0.5 / FPS));
            assertThat(r.info().frameCount()).as("frame count").isEqualTo(slots);
            r.readFrames(sampled, GRAY, dst.addressOffset(), dst.capacity());
        }
        if (!held) {
            SingleThreadVideoReader.open(clip, THREE_SECONDS).close(); // not refused as longer than 3 s
        }
        final byte[] all = TestImages.bytes(dst, sampled.length * GRAY.bytes());
        final int[] got = new int[sampled.length];
        final int[] expected = new int[sampled.length];
        final long gap = slots - FRAMES; // the held AVI's empty slots, between its frames 0 and 1
        for (int k = 0; k < sampled.length; k++) {
            got[k] = FfmpegTestEncoder.frameIndex(all, k * GRAY.bytes(), W, H, 1);
            int nearest = 0; // the frame nearest the sampled slot, the earlier on a tie (the reader's rule)
            for (int f = 1; f < FRAMES; f++) {
                if (Math.abs(f + gap - sampled[k]) < Math.abs((nearest == 0 ? 0 : nearest + gap) - sampled[k])) {
                    nearest = f;
                }
            }
            expected[k] = nearest;
        }
        assertThat(got).as("sampled frames").containsExactly(expected);
        final MediaInfo probed = MediaProbe.probe(clip);
        assertThat(probed.streams().get(0).durationSeconds()).as("probed stream duration")
                .isCloseTo(slots / (double) FPS, within(0.5 / FPS));
        assertThat(probed.durationSeconds()).as("probed file duration").isCloseTo(slots / (double) FPS,
                within(0.5 / FPS));
    }

    static Stream<Arguments> audioCases() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String ext : new String[] {"mp4", "mov", "mkv", "webm", "nut", "ts", "avi", "flv"}) {
            cases.add(Arguments.of(ext, 0.0));
            if (!ext.equals("avi")) { // AVI stores no start time (see the video test); audio gets empty chunks
                cases.add(Arguments.of(ext, START));
            }
        }
        return cases.stream();
    }

    /**
     * The probed audio duration and the duration limit agree with the samples the stream decodes to (within one
     * codec frame: encoders pad the last one), whatever its start time.
     */
    @ParameterizedTest(name = "{0} starting at {1} s")
    @MethodSource("audioCases")
    void shouldReportTheAudioStreamsOwnLengthWhateverItsStartTime(final String ext, final double start) {
        final Path clip = dir.resolve("tone." + ext);
        final String encoder = switch (ext) {
            case "webm" -> "libopus";
            case "flv" -> "adpcm_swf"; // FLV takes neither MP2 nor PCM; ADPCM at 44.1 kHz
            default -> "mp2";
        };
        final int rate = ext.equals("flv") ? 44_100 : 48_000;
        FfmpegTestEncoder.toneStartingAt(clip, encoder, 2, rate, 2.0, 440, start);
        final AudioSpec spec = new AudioSpec(rate, 1, false, 4 * rate);
        final UnsafeBuffer dst = TestImages.nativeBuffer((int) spec.bytes());
        final int samples = AudioDecoder.decodeFile(clip, spec, THREE_SECONDS, dst.addressOffset(), dst.capacity());
        final double decoded = samples / (double) rate;
        assertThat(decoded).as("decoded seconds").isCloseTo(2.0, within(0.05));
        assertThat(MediaProbe.probe(clip).streams().get(0).durationSeconds()).as("probed stream duration")
                .isCloseTo(decoded, within(0.025));
    }

    /**
     * Matroska written by mkvmerge (or GStreamer) stores the segment's span as its duration, not the end timestamp
     * FFmpeg's muxer stores: such a file starting at 1 s is not shortened by its start. The file is FFmpeg's with
     * its muxing and writing application renamed and its duration rewritten to the span, as mkvmerge writes them.
     */
    @Test
    void shouldKeepTheSpanAMatroskaWriterOtherThanFfmpegStores() throws IOException {
        final Path clip = dir.resolve("mkvmerge.mkv");
        final double start = 1; // under the span, so that subtracting it would leave a plausible 1.4 s
        FfmpegTestEncoder.videoStartingAt(clip, "mpeg4", W, H, FRAMES, FPS, 12, start);
        final byte[] b = Files.readAllBytes(clip);
        renameWritingApplication(b);
        rewriteSegmentDuration(b, (start + FRAMES / (double) FPS) * 1000, FRAMES / (double) FPS * 1000);
        Files.write(clip, b);
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, THREE_SECONDS)) {
            assertThat(r.info().durationSeconds()).isCloseTo(FRAMES / (double) FPS, within(0.5 / FPS));
            assertThat(r.info().frameCount()).isEqualTo(FRAMES);
        }
    }

    /** Replaces every "Lavf..." string (MuxingApp, WritingApp, the ENCODER tag) with a non-FFmpeg name. */
    private static void renameWritingApplication(final byte[] b) {
        final byte[] lavf = "Lavf".getBytes(StandardCharsets.US_ASCII);
        final byte[] other = "libebml v1.4.5 + libmatroska v1.7.1".getBytes(StandardCharsets.US_ASCII);
        int renamed = 0;
        for (int i = 0; i + lavf.length <= b.length; i++) {
            if (java.util.Arrays.equals(b, i, i + lavf.length, lavf, 0, lavf.length)) {
                int end = i + lavf.length;
                while (end < b.length && (Character.isDigit(b[end]) || b[end] == '.')) {
                    end++;
                }
                for (int j = i; j < end; j++) {
                    b[j] = j - i < other.length ? other[j - i] : (byte) ' ';
                }
                renamed++;
            }
        }
        assertThat(renamed).as("Lavf strings").isPositive();
    }

    /** Rewrites the Segment Duration (EBML ID 0x4489, an 8-byte float in TimestampScale units: ms here). */
    private static void rewriteSegmentDuration(final byte[] b, final double expected, final double replacement) {
        int found = 0;
        for (int i = 0; i + 11 <= b.length; i++) {
            if ((b[i] & 0xFF) == 0x44 && (b[i + 1] & 0xFF) == 0x89 && (b[i + 2] & 0xFF) == 0x88) {
                final ByteBuffer value = ByteBuffer.wrap(b, i + 3, 8);
                if (Math.abs(value.getDouble(i + 3) - expected) < 1) {
                    value.putDouble(i + 3, replacement);
                    found++;
                }
            }
        }
        assertThat(found).as("Segment Duration elements of %s", expected).isEqualTo(1);
    }
}
