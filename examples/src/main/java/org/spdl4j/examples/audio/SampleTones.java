package org.spdl4j.examples.audio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.spdl4j.examples.AtomicFiles;

/**
 * The audio example's own input: 16-bit PCM WAV files of pure tones, written in plain Java (no download, no committed
 * binaries). File {@code k} holds a tone of {@link #frequencyOf(int)} Hz at one of several sample rates (8, 22.05,
 * 44.1 kHz), mono or stereo, {@link #secondsOf(int)} long, so the loader really has to resample, downmix and pad.
 *
 * <p>Not thread-safe (call from one thread). Allocates: this is set-up, not the pipeline.
 */
public final class SampleTones {
    private static final int[] RATES = {8000, 22050, 44100};

    private SampleTones() {
    }

    /**
     * Writes {@code count} files {@code tone-000.wav ...} into {@code dir} unless they exist.
     *
     * @param dir   the folder
     * @param count how many files
     * @return the paths, in name order
     * @throws IOException when the folder cannot be written
     */
    public static List<Path> ensure(Path dir, int count) throws IOException {
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            Path f = dir.resolve(String.format(Locale.ROOT, "tone-%03d.wav", k));
            if (!Files.exists(f)) { // written whole or not at all: a cut file would fail every later run
                byte[] wav = wav(RATES[k % RATES.length], 1 + k % 2, frequencyOf(k), secondsOf(k));
                AtomicFiles.write(f, tmp -> Files.write(tmp, wav));
            }
            files.add(f);
        }
        return files;
    }

    /**
     * The tone of file {@code k}.
     *
     * @param k file index
     * @return 220 Hz plus 110 Hz per step, cycling over 8 tones (220 .. 990 Hz)
     */
    public static double frequencyOf(int k) {
        return 220 + 110 * (k % 8);
    }

    /**
     * The length of file {@code k}.
     *
     * @param k file index
     * @return 0.5, 0.75, 1.0 or 1.25 seconds
     */
    public static double secondsOf(int k) {
        return 0.5 + 0.25 * (k % 4);
    }

    /**
     * Encodes a tone as a WAV file (RIFF, PCM 16-bit little-endian, every channel the same tone at amplitude 0.5).
     *
     * @param rate      sample rate in Hz
     * @param channels  1 or 2
     * @param frequency tone frequency in Hz
     * @param seconds   length
     * @return the file's bytes
     */
    public static byte[] wav(int rate, int channels, double frequency, double seconds) {
        int frames = (int) Math.round(rate * seconds);
        int dataBytes = frames * channels * 2;
        ByteBuffer b = ByteBuffer.allocate(44 + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.put(ascii("RIFF")).putInt(36 + dataBytes).put(ascii("WAVE"));
        b.put(ascii("fmt ")).putInt(16).putShort((short) 1).putShort((short) channels).putInt(rate)
            .putInt(rate * channels * 2).putShort((short) (channels * 2)).putShort((short) 16);
        b.put(ascii("data")).putInt(dataBytes);
        for (int i = 0; i < frames; i++) {
            short v = (short) Math.round(0.5 * Short.MAX_VALUE * Math.sin(2 * Math.PI * frequency * i / rate));
            for (int c = 0; c < channels; c++) {
                b.putShort(v);
            }
        }
        return b.array();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
