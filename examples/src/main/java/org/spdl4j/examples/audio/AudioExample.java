package org.spdl4j.examples.audio;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.examples.common.StageTable;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.AudioClipDecoder;
import org.spdl4j.media.AudioSpec;
import org.spdl4j.offheap.batch.Batch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Audio loading on the library's {@link Loader}: an {@link AudioClipDecoder} decodes and resamples each file (FFmpeg)
 * to float32 planar {@code [C, N]} at one rate, straight into its slot of an off-heap batch {@code [B, C, N]}; short
 * files are padded with silence. Without {@code --data}
 * it writes its own WAV tones first ({@link SampleTones}: three sample rates, mono and stereo) and prints, per file,
 * the decoded length, loudness and pitch, which match the generated tones.
 *
 * <p>Run: {@code bin/spdl4j-java -cp "examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar:examples/target/lib/*"
 * org.spdl4j.examples.audio.AudioExample [--data DIR] [--rate 16000] [--channels 1] [--seconds 1]}
 */
@Command(name = "audio", mixinStandardHelpOptions = true,
    description = "Decodes and resamples audio files into [B, C, N] float32 off-heap batches.")
public final class AudioExample implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--data", description = "folder of audio files (default: generated WAV tones)")
    private Path data;

    @Option(names = "--files", defaultValue = "16", description = "tones to generate without --data")
    private int files;

    @Option(names = "--rate", defaultValue = "16000", description = "output sample rate, Hz")
    private int rate;

    @Option(names = "--channels", defaultValue = "1", description = "output channels (1 = mono downmix)")
    private int channels;

    @Option(names = "--seconds", defaultValue = "1.0", description = "N = rate x seconds samples per channel")
    private double seconds;

    @Option(names = "--batch", defaultValue = "8", description = "files per batch")
    private int batch;

    @Option(names = "--threads", defaultValue = "2", description = "decode threads")
    private int threads;

    /** Creates the command with its defaults (picocli sets the options). */
    public AudioExample() {
    }

    /**
     * Runs the example.
     *
     * @param args command-line options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(ExampleCommands.execute(new AudioExample(), args));
    }

    /** {@return where the generated tones go: reused by the next run} */
    public static Path sampleFolder() {
        return Path.of(System.getProperty("java.io.tmpdir"), "spdl4j-examples", "tones");
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        int n = (int) Math.round(rate * seconds);
        if (rate < 1000 || channels < 1 || channels > 8 || n < 1 || batch < 1 || threads < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "need --rate >= 1000, 1 <= --channels <= 8, --seconds > 0, --batch >= 1, --threads >= 1");
        }
        Path dir = data != null ? data : sampleFolder();
        if (data == null) {
            SampleTones.ensure(dir, files);
        } else if (!Files.isDirectory(data)) {
            throw new IOException("--data " + data + " is not a folder of audio files");
        }
        AudioSpec audio = new AudioSpec(rate, channels, false, n);
        UnsafeBuffer view = new UnsafeBuffer();
        long start = System.nanoTime();
        int decoded = 0;
        try (Loader<Batch> loader = Loader.builder().name("audio")
                .source(SampleSource.folder(dir, SampleSource.AUDIO_EXTENSIONS))
                .decoder(AudioClipDecoder.of(audio))
                .batchSize(batch).decodeConcurrency(threads).shuffle(false).build()) {
            for (LoadedBatch<Batch> b : loader) {
                try (b) {
                    out.printf(Locale.ROOT, "batch [%d, %d, %d] float32%n", b.size(), channels, n);
                    for (int i = 0; i < b.size(); i++) {
                        view.wrap(b.data().sampleAddress(i), (int) audio.bytes());
                        ToneStats t = ToneStats.of(view, 0, n, rate); // channel 0
                        out.printf(Locale.ROOT, "  %-14s %.3f s  rms %.3f  pitch %6.1f Hz%n", b.key(i),
                            t.samples() / (double) rate, t.rms(), t.pitchHz());
                    }
                    decoded += b.size();
                }
            }
            double secs = (System.nanoTime() - start) / 1e9;
            out.printf(Locale.ROOT, "%d files (%d failed), %.2f s: %.1f files/s%n", decoded, loader.failures(),
                secs, decoded / secs);
            StageTable.print(loader.stats(), out);
        }
        out.flush();
        return 0;
    }
}
