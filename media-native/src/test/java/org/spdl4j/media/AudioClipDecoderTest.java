package org.spdl4j.media;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.within;

/**
 * The audio decode step of a loader: float32 [C, N] in the slot, the tone's own frequency and amplitude, silence after
 * a short clip and a cut at N for a long one, the same samples from memory as from the file (WAV and MPEG audio), and,
 * through {@link SlotDecoderContract}, bad input named by its key and no native leftovers.
 */
@Timeout(60)
class AudioClipDecoderTest extends SlotDecoderContract {
    private static final int RATE = 16_000;
    /** Stereo WAV, 1 s at 44.1 kHz: left 440 Hz at 0.5, right 1000 Hz at 0.25 ({@link AudioDecoderTest#wav}). */
    private static final byte[] WAV = AudioDecoderTest.wav(44_100, 1.0);

    @TempDir
    static Path dir;
    static Path wavFile;
    static Path mp2File;

    @BeforeAll
    static void writeClips() throws IOException {
        wavFile = dir.resolve("tones.wav");
        Files.write(wavFile, WAV);
        mp2File = dir.resolve("tone.mp2");
        FfmpegTestEncoder.tone(mp2File, "mp2", 2, 44_100, 1.0, 440);
    }

    @Override
    SlotDecoder newDecoder() {
        return AudioClipDecoder.of(new AudioSpec(RATE, 2, false, RATE));
    }

    @Override
    byte[] goodInput() {
        return WAV;
    }

    @Override
    byte[][] badInputs() {
        return new byte[][] {Arrays.copyOf(WAV, 44), Arrays.copyOf(WAV, 20), "not audio at all, just text\n".repeat(
                200).getBytes(java.nio.charset.StandardCharsets.US_ASCII)};
    }

    private static float[][] decode(final SlotDecoder d, final AudioSpec spec, final EncodedSample sample) {
        final int bytes = slotBytes(d);
        final UnsafeBuffer slot = fencedSlot(bytes);
        d.decode(sample, slot.addressOffset(), bytes);
        final float[][] out = new float[spec.channels()][spec.maxSamples()];
        for (int c = 0; c < spec.channels(); c++) {
            for (int i = 0; i < spec.maxSamples(); i++) {
                out[c][i] = slot.getFloat((c * spec.maxSamples() + i) * Float.BYTES, ByteOrder.nativeOrder());
            }
        }
        return out;
    }

    private static int zeroCrossings(final float[] x, final int from, final int to) {
        int n = 0;
        for (int i = from + 1; i < to; i++) {
            if ((x[i - 1] < 0) != (x[i] < 0)) {
                n++;
            }
        }
        return n;
    }

    private static float peak(final float[] x, final int from, final int to) {
        float m = 0;
        for (int i = from; i < to; i++) {
            m = Math.max(m, Math.abs(x[i]));
        }
        return m;
    }

    @Test
    void shouldDescribePlanarFloatClips() {
        try (SlotDecoder d = AudioClipDecoder.of(new AudioSpec(RATE, 2, false, 24_000))) {
            assertThat(d.dtype()).isEqualTo(DType.F32);
            assertThat(d.sampleShape()).containsExactly(2, 24_000);
            assertThat(d.readsFiles()).isTrue();
        }
        assertThatThrownBy(() -> AudioClipDecoder.of(new AudioSpec(RATE, 2, true, 100)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("planar");
    }

    /** 1 s of audio in a 1.5 s slot: the tones for 16,000 samples, then silence written over whatever was there. */
    @Test
    void shouldPadAShortClipWithSilence() {
        final AudioSpec spec = new AudioSpec(RATE, 2, false, 24_000);
        try (SlotDecoder d = AudioClipDecoder.of(spec)) {
            final float[][] out = decode(d, spec, TestSample.inMemory("tones", WAV, 0));
            // 440 Hz and 1000 Hz: 880 and 2000 zero crossings a second
            assertThat(zeroCrossings(out[0], 0, RATE)).isCloseTo(880, within(4));
            assertThat(zeroCrossings(out[1], 0, RATE)).isCloseTo(2000, within(4));
            assertThat(peak(out[0], 1000, 15_000)).isCloseTo(0.5f, within(0.02f));
            assertThat(peak(out[1], 1000, 15_000)).isCloseTo(0.25f, within(0.02f));
            for (int c = 0; c < 2; c++) {
                for (int i = RATE + 50; i < spec.maxSamples(); i++) {
                    assertThat(out[c][i]).as("channel %d sample %d", c, i).isZero();
                }
            }
        }
    }

    @Test
    void shouldCutALongClipAtN() {
        final AudioSpec spec = new AudioSpec(RATE, 1, false, 4_000);
        try (SlotDecoder d = AudioClipDecoder.of(spec)) {
            final float[][] out = decode(d, spec, TestSample.inMemory("tones", WAV, 0));
            // mono: the two tones mixed down; still sound to the last sample, no silence at the end
            assertThat(peak(out[0], 3_000, 4_000)).isGreaterThan(0.3f);
        }
    }

    @Test
    void shouldDecodeTheSameSamplesFromMemoryAsFromTheFile() throws IOException {
        final AudioSpec spec = new AudioSpec(RATE, 2, false, 20_000);
        try (SlotDecoder d = AudioClipDecoder.of(spec)) {
            for (final Path file : new Path[] {wavFile, mp2File}) {
                final float[][] fromFile = decode(d, spec, TestSample.file("audio/" + file.getFileName(), file));
                final float[][] fromMemory = decode(d, spec,
                        TestSample.inMemory("shard@" + file.getFileName(), Files.readAllBytes(file), 0));
                assertThat(peak(fromFile[0], 1000, 15_000)).as("%s left peak", file).isCloseTo(0.5f, within(0.03f));
                for (int c = 0; c < 2; c++) {
                    assertThat(fromMemory[c]).as("%s channel %d", file.getFileName(), c).containsExactly(fromFile[c]);
                }
            }
        }
    }

    @Test
    void shouldNameTheKeyOfABrokenFile() throws IOException {
        final Path broken = dir.resolve("broken.wav");
        Files.write(broken, Arrays.copyOf(WAV, 20));
        try (SlotDecoder d = newDecoder()) {
            final int bytes = slotBytes(d);
            final UnsafeBuffer slot = fencedSlot(bytes);
            final MediaException e = catchThrowableOfType(MediaException.class,
                    () -> d.decode(TestSample.file("audio/broken.wav", broken), slot.addressOffset(), bytes));
            assertThat(e).isNotNull();
            assertThat(e.input()).isEqualTo("audio/broken.wav");
        }
    }
}
