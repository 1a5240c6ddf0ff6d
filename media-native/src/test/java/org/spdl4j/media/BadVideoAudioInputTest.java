package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Truncated, empty and random video and audio files fail with a {@link MediaException} naming the file, and free
 * every FFmpeg object on the way out.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BadVideoAudioInputTest {
    private static final ImageSpec FRAME = ImageSpec.exact(32, 24, PixelFormat.GRAY8);
    private static final AudioSpec AUDIO = new AudioSpec(16_000, 1, false, 16_000);

    @TempDir
    static Path dir;
    static byte[] mp4;
    static byte[] wav;

    @BeforeAll
    static void encode() throws IOException {
        Path clip = dir.resolve("good.mp4");
        FfmpegTestEncoder.video(clip, "mpeg4", 64, 48, 25, 25, 5);
        mp4 = Files.readAllBytes(clip);
        wav = AudioDecoderTest.wav(16_000, 0.5);
    }

    private static Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static MediaException readVideo(Path file) {
        UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(30 * FRAME.bytes()));
        long[] all = new long[25];
        Arrays.setAll(all, i -> i);
        return catchThrowableOfType(MediaException.class, () -> {
            try (SingleThreadVideoReader r = SingleThreadVideoReader.open(file, MediaLimits.DEFAULT)) {
                r.readFrames(all, FRAME, dst.addressOffset(), dst.capacity());
            }
        });
    }

    private static MediaException readAudio(Path file) {
        UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect((int) AUDIO.bytes()));
        return catchThrowableOfType(MediaException.class, () ->
                AudioDecoder.decodeFile(file, AUDIO, MediaLimits.DEFAULT, dst.addressOffset(), dst.capacity()));
    }

    @Test
    void shouldNameEachBrokenVideoFile() throws IOException {
        byte[] random = new byte[mp4.length];
        new Random(5).nextBytes(random);
        for (Path file : new Path[] {
            write("half.mp4", Arrays.copyOf(mp4, mp4.length / 2)),
            write("header-only.mp4", Arrays.copyOf(mp4, 64)),
            write("empty.mp4", new byte[0]),
            write("random.mp4", random),
            write("audio-not-video.mp4", wav)}) {
            MediaException e = readVideo(file);
            assertThat(e).as(file.getFileName().toString()).isNotNull();
            assertThat(e.input()).isEqualTo(file.toString());
            assertThat(e.getMessage()).startsWith(file + ": ");
            if (file.getFileName().toString().equals("empty.mp4")) {
                assertThat(e.getMessage()).contains("empty file (0 bytes)");
            }
        }
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    @Test
    void shouldNameEachBrokenAudioFile() throws IOException {
        byte[] random = new byte[wav.length];
        new Random(6).nextBytes(random);
        for (Path file : new Path[] {
            write("header-only.wav", Arrays.copyOf(wav, 44)),
            write("cut-in-header.wav", Arrays.copyOf(wav, 20)),
            write("empty.wav", new byte[0]),
            write("random.wav", random)}) {
            MediaException e = readAudio(file);
            assertThat(e).as(file.getFileName().toString()).isNotNull();
            assertThat(e.input()).isEqualTo(file.toString());
        }
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    /**
     * An ffconcat list that names itself (or a loop of lists) made FFmpeg's concat demuxer open it again inside its
     * own header read, without end, until the native stack overflowed: the JVM died (SIGSEGV) on a 40-byte text
     * file. A file input that FFmpeg probes as an ffconcat list is refused before its demuxer runs.
     */
    @Test
    void shouldRefuseAnFfconcatListThatNamesItselfInsteadOfRecursingUntilTheJvmDies() throws IOException {
        Path list = write("loop.ffconcat", "ffconcat version 1.0\nfile loop.ffconcat\n".getBytes(
                java.nio.charset.StandardCharsets.US_ASCII));
        for (MediaException e : new MediaException[] {readVideo(list), readAudio(list),
            catchThrowableOfType(MediaException.class, () -> MediaProbe.probe(list))}) {
            assertThat(e).isNotNull();
            assertThat(e.getMessage()).startsWith(list + ": ").contains("ffconcat");
        }
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    /**
     * A WAV cut off mid-sample (a recording that stopped) gives the samples before the cut. Its last packet has an odd
     * size, which the PCM decoder refuses (AVERROR_INVALIDDATA); that used to discard the whole file, and this test
     * listed it among the broken ones. One bad packet of several is skipped now, as the ffmpeg program does.
     */
    @Test
    void shouldReturnTheSamplesBeforeTheCutOfATruncatedWav() throws IOException {
        byte[] half = Arrays.copyOf(wav, wav.length / 2 + 1);
        Path file = write("half.wav", half);
        UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect((int) AUDIO.bytes()));
        int n = AudioDecoder.decodeFile(file, AUDIO, MediaLimits.DEFAULT, dst.addressOffset(), dst.capacity());
        int whole = (half.length - 44) / 4; // stereo 16-bit frames, at the file's own 16 kHz
        // FFmpeg's wav demuxer reads 4096-byte packets: the cut one is lost whole, the ones before it are all there
        assertThat(n).isBetween(whole - 1024, whole);
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }
}
