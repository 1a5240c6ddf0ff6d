package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Audio decode + resample checked by the signal itself: length, frequency (zero crossings) and amplitude. */
@Timeout(60)
class AudioDecoderTest {
    private static final int RATE = 44_100;
    private static final double LEFT_HZ = 440;
    private static final double RIGHT_HZ = 1000;

    @TempDir
    static Path dir;
    static Path wav;

    @BeforeAll
    static void writeClip() throws IOException {
        wav = dir.resolve("tones.wav");
        Files.write(wav, wav(RATE, 1.0));
    }

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    /** 16-bit stereo PCM WAV: left 440 Hz at 0.5, right 1000 Hz at 0.25. */
    static byte[] wav(final int rate, final double seconds) {
        final int n = (int) (rate * seconds);
        final ByteBuffer b = ByteBuffer.allocate(44 + n * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(36 + n * 4).put("WAVE".getBytes()).put("fmt ".getBytes()).putInt(16)
                .putShort((short) 1).putShort((short) 2).putInt(rate).putInt(rate * 4).putShort((short) 4)
                .putShort((short) 16).put("data".getBytes()).putInt(n * 4);
        for (int i = 0; i < n; i++) {
            b.putShort((short) Math.round(0.5 * 32767 * Math.sin(2 * Math.PI * LEFT_HZ * i / rate)));
            b.putShort((short) Math.round(0.25 * 32767 * Math.sin(2 * Math.PI * RIGHT_HZ * i / rate)));
        }
        return b.array();
    }

    private static float[] channel(final UnsafeBuffer dst, final AudioSpec spec, final int c, final int n) {
        final float[] out = new float[n];
        for (int i = 0; i < n; i++) {
            out[i] = spec.interleaved() ? dst.getFloat((i * spec.channels() + c) * 4, ByteOrder.nativeOrder())
                    : dst.getFloat((c * spec.maxSamples() + i) * 4, ByteOrder.nativeOrder());
        }
        return out;
    }

    private static int zeroCrossings(final float[] x) {
        int n = 0;
        for (int i = 1; i < x.length; i++) {
            if ((x[i - 1] < 0) != (x[i] < 0)) {
                n++;
            }
        }
        return n;
    }

    private static float peak(final float[] x) {
        float m = 0;
        for (int i = x.length / 10; i < x.length * 9 / 10; i++) {
            m = Math.max(m, Math.abs(x[i]));
        }
        return m;
    }

    @Test
    void shouldResampleToPlanarFloatKeepingFrequencyAndAmplitude() {
        final AudioSpec spec = new AudioSpec(16_000, 2, false, 20_000);
        final UnsafeBuffer dst = TestImages.nativeBuffer((int) spec.bytes());
        final int n = AudioDecoder.decodeFile(wav, spec, MediaLimits.DEFAULT, dst.addressOffset(), dst.capacity());
        assertThat(n).isCloseTo(16_000, within(64));
        final float[] left = channel(dst, spec, 0, n);
        final float[] right = channel(dst, spec, 1, n);
        assertThat(zeroCrossings(left)).isCloseTo((int) (2 * LEFT_HZ), within(6));
        assertThat(zeroCrossings(right)).isCloseTo((int) (2 * RIGHT_HZ), within(6));
        assertThat(peak(left)).isCloseTo(0.5f, within(0.02f));
        assertThat(peak(right)).isCloseTo(0.25f, within(0.02f));
    }

    @Test
    void shouldWriteInterleavedAsTheTransposeOfPlanar() {
        final AudioSpec planar = new AudioSpec(22_050, 2, false, 30_000);
        final AudioSpec inter = new AudioSpec(22_050, 2, true, 30_000);
        final UnsafeBuffer a = TestImages.nativeBuffer((int) planar.bytes());
        final UnsafeBuffer b = TestImages.nativeBuffer((int) inter.bytes());
        final int n = AudioDecoder.decodeFile(wav, planar, MediaLimits.DEFAULT, a.addressOffset(), a.capacity());
        assertThat(AudioDecoder.decodeFile(wav, inter, MediaLimits.DEFAULT, b.addressOffset(), b.capacity()))
                .isEqualTo(n);
        for (int c = 0; c < 2; c++) {
            assertThat(channel(b, inter, c, n)).containsExactly(channel(a, planar, c, n));
        }
    }

    @Test
    void shouldCutAtTheDestinationCapacityAndDownmixToMono() {
        final AudioSpec spec = new AudioSpec(RATE, 1, false, 1000);
        final UnsafeBuffer dst = TestImages.nativeBuffer((int) spec.bytes());
        assertThat(AudioDecoder.decodeFile(wav, spec, MediaLimits.DEFAULT, dst.addressOffset(), dst.capacity()))
                .isEqualTo(1000);
        assertThat(peak(channel(dst, spec, 0, 1000))).isGreaterThan(0.2f);
    }

    /**
     * An MPEG audio stream whose channel count changes mid-way (a stereo file followed by a mono one, as
     * {@code cat a.mp2 b.mp2} makes): the decoder's frames change layout, and the resampler must follow. A resampler
     * kept from the first frame reads a second channel plane that the mono frames do not have (a native crash).
     */
    @Test
    void shouldFollowAChannelLayoutChangeMidStream() throws IOException {
        final Path stereo = dir.resolve("stereo.mp2");
        final Path mono = dir.resolve("mono.mp2");
        FfmpegTestEncoder.tone(stereo, "mp2", 2, RATE, 0.5, LEFT_HZ);
        FfmpegTestEncoder.tone(mono, "mp2", 1, RATE, 0.5, RIGHT_HZ);
        final Path joined = dir.resolve("joined.mp2");
        Files.write(joined, Files.readAllBytes(stereo));
        Files.write(joined, Files.readAllBytes(mono), java.nio.file.StandardOpenOption.APPEND);
        final AudioSpec spec = new AudioSpec(16_000, 2, false, 20_000);
        final UnsafeBuffer dst = TestImages.nativeBuffer((int) spec.bytes());
        final int n = AudioDecoder.decodeFile(joined, spec, MediaLimits.DEFAULT, dst.addressOffset(), dst.capacity());
        assertThat(n).as("samples of both halves").isCloseTo(16_000, within(1200));
        for (int c = 0; c < 2; c++) {
            final float[] x = channel(dst, spec, c, n);
            final float[] first = java.util.Arrays.copyOfRange(x, 500, 7000);
            final float[] second = java.util.Arrays.copyOfRange(x, 9500, Math.min(n, 15500));
            // Each half keeps its own tone: 440 Hz, then 1000 Hz (the mono half upmixed to both channels).
            assertThat(zeroCrossings(first) * 16_000.0 / (2 * first.length)).as("channel %d, first half Hz", c)
                    .isCloseTo(LEFT_HZ, within(30.0));
            assertThat(zeroCrossings(second) * 16_000.0 / (2 * second.length)).as("channel %d, second half Hz", c)
                    .isCloseTo(RIGHT_HZ, within(60.0));
            assertThat(peak(second)).as("channel %d, second half peak", c).isGreaterThan(0.2f);
        }
    }

    /** A relative path whose first segment looks like a URL scheme is still a file, not an FFmpeg protocol. */
    @Test
    void shouldOpenARelativePathThatLooksLikeAUrl() throws IOException {
        final Path relative = Path.of("spdl4j-test:" + ProcessHandle.current().pid() + ".wav");
        Files.write(relative, wav(8000, 0.25));
        try {
            final AudioSpec spec = new AudioSpec(8000, 2, false, 4000);
            final UnsafeBuffer dst = TestImages.nativeBuffer((int) spec.bytes());
            assertThat(AudioDecoder.decodeFile(relative, spec, MediaLimits.DEFAULT, dst.addressOffset(),
                    dst.capacity())).isCloseTo(2000, within(64));
        } finally {
            Files.deleteIfExists(relative);
        }
    }

    @Test
    void shouldRejectBrokenFilesAndLongStreams() throws IOException {
        final Path empty = Files.write(dir.resolve("empty.wav"), new byte[0]);
        final byte[] random = new byte[2048];
        new java.util.Random(5).nextBytes(random);
        final Path noise = Files.write(dir.resolve("random.mp3"), random);
        final AudioSpec spec = new AudioSpec(16_000, 1, false, 100);
        final UnsafeBuffer dst = TestImages.nativeBuffer((int) spec.bytes());
        for (final Path p : new Path[] {empty, noise, dir.resolve("missing.flac")}) {
            assertThatThrownBy(() -> AudioDecoder.decodeFile(p, spec, MediaLimits.DEFAULT, dst.addressOffset(),
                    dst.capacity())).as(p.toString()).isInstanceOf(MediaException.class)
                    .hasMessageStartingWith(p.toString());
        }
        final Path longer = Files.write(dir.resolve("long.wav"), wav(8000, 3.0));
        assertThatThrownBy(() -> AudioDecoder.decodeFile(longer, spec, new MediaLimits(1 << 20, 10, 2, 1 << 20),
                dst.addressOffset(), dst.capacity())).isInstanceOf(MediaException.class)
                .hasMessageContaining("exceeds the limit of 2 s");
    }

    @Test
    void shouldProbeAudioAndVideoFiles() {
        final MediaInfo info = MediaProbe.probe(wav);
        assertThat(info.container()).isEqualTo("wav");
        assertThat(info.durationSeconds()).isCloseTo(1.0, within(0.01));
        assertThat(info.streams()).singleElement().satisfies(s -> {
            assertThat(s.type()).isEqualTo("audio");
            assertThat(s.codec()).isEqualTo("pcm_s16le");
            assertThat(s.sampleRate()).isEqualTo(RATE);
            assertThat(s.channels()).isEqualTo(2);
        });
        final Path mp4 = dir.resolve("probe.mp4");
        FfmpegTestEncoder.video(mp4, "mpeg4", 64, 48, 10, 10, 5);
        assertThat(MediaProbe.probe(mp4).streams()).singleElement().satisfies(s -> {
            assertThat(s.type()).isEqualTo("video");
            assertThat(s.codec()).isEqualTo("mpeg4");
            assertThat(s.width()).isEqualTo(64);
            assertThat(s.height()).isEqualTo(48);
            assertThat(s.fps()).isCloseTo(10, within(0.01));
            assertThat(s.frames()).isEqualTo(10);
        });
    }

    /** MP2 at 48 kHz and 256 kb/s: every frame is 768 bytes (no padding), so frame k starts at byte 768 k. */
    private static final int MP2_FRAME_BYTES = 768;

    /** {@return a 2 s stereo MP2 tone with the frames {@code damaged} selects given an invalid bitrate index} */
    private static Path mp2WithDamagedFrames(final String name, final java.util.function.IntPredicate damaged)
            throws IOException {
        final Path p = dir.resolve(name);
        FfmpegTestEncoder.tone(p, "mp2", 2, 48_000, 2.0, 440);
        final byte[] b = Files.readAllBytes(p);
        for (int k = 0; (k + 1) * MP2_FRAME_BYTES <= b.length; k++) {
            final int at = k * MP2_FRAME_BYTES;
            assertThat(b[at] & 0xFF).as("frame %d sync", k).isEqualTo(0xFF);
            if (damaged.test(k)) {
                b[at + 2] = (byte) (b[at + 2] | 0xF0); // bitrate index 15: "invalid" in every MPEG audio layer
            }
        }
        return Files.write(p, b);
    }

    /**
     * One damaged packet costs its own samples only: FFmpeg's decoder stays usable after AVERROR_INVALIDDATA (the
     * ffmpeg program logs it and goes on). It used to throw away the whole clip.
     */
    @Test
    void shouldSkipADamagedPacketAndKeepTheRestOfTheClip() throws IOException {
        final Path p = mp2WithDamagedFrames("one-bad-frame.mp2", k -> k == 60);
        final AudioSpec spec = new AudioSpec(16_000, 1, false, 40_000);
        final UnsafeBuffer dst = TestImages.nativeBuffer((int) spec.bytes());
        final int n = AudioDecoder.decodeFile(p, spec, MediaLimits.DEFAULT, dst.addressOffset(), dst.capacity());
        // 2 s at 16 kHz less the damaged frame's 1152 samples at 48 kHz (384 at 16 kHz), give or take codec delay
        assertThat(n).isBetween(32_000 - 384 - 200, 32_000);
    }

    /** When most packets are damaged the file is refused, naming the count and FFmpeg's reason. */
    @Test
    void shouldRefuseAClipWhoseMostPacketsAreDamaged() throws IOException {
        final Path p = mp2WithDamagedFrames("mostly-bad.mp2", k -> k >= 3 && k % 4 != 0);
        final AudioSpec spec = new AudioSpec(16_000, 1, false, 40_000);
        final UnsafeBuffer dst = TestImages.nativeBuffer((int) spec.bytes());
        assertThatThrownBy(() -> AudioDecoder.decodeFile(p, spec, MediaLimits.DEFAULT, dst.addressOffset(),
                dst.capacity())).isInstanceOf(MediaException.class).hasMessageStartingWith(p + ": ")
                .hasMessageContaining("packets could not be decoded").hasMessageContaining("Invalid data found");
    }

    /**
     * A FLAC file whose STREAMINFO gives the total sample count as 0 ("unknown", as a FLAC encoder writing to a pipe
     * leaves it) declares no duration: its samples are held to the duration limit as they decode. It used to pass
     * any limit.
     */
    @Test
    void shouldHoldAStreamWithoutADeclaredDurationToTheDurationLimitWhileDecoding() throws IOException {
        final Path p = dir.resolve("unknown-length.flac");
        FfmpegTestEncoder.tone(p, "flac", 1, 8000, 3.0, 440);
        final byte[] b = Files.readAllBytes(p);
        // "fLaC", the metadata block header, then STREAMINFO: its 36-bit total sample count starts in the low
        // nibble of byte 13 of the block (8 + 13 = 21) and fills bytes 22 to 25
        assertThat(new String(b, 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("fLaC");
        b[21] &= (byte) 0xF0;
        java.util.Arrays.fill(b, 22, 26, (byte) 0);
        Files.write(p, b);
        assertThat(MediaProbe.probe(p).durationSeconds()).isZero();
        final AudioSpec spec = new AudioSpec(8000, 1, false, 30_000);
        final UnsafeBuffer dst = TestImages.nativeBuffer((int) spec.bytes());
        assertThatThrownBy(() -> AudioDecoder.decodeFile(p, spec, new MediaLimits(1 << 20, 10, 2, 1 << 20),
                dst.addressOffset(), dst.capacity())).isInstanceOf(MediaException.class)
                .hasMessageStartingWith(p + ": ").hasMessageContaining("limit of 2 s");
        // 3 s, the last FLAC frame padded to the encoder's frame size
        assertThat(AudioDecoder.decodeFile(p, spec, new MediaLimits(1 << 20, 10, 4, 1 << 20), dst.addressOffset(),
                dst.capacity())).isBetween(24_000, 24_000 + 4608);
    }
}
