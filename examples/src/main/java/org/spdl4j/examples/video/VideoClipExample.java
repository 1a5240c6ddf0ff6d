package org.spdl4j.examples.video;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.examples.common.StageTable;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.VideoClipDecoder;
import org.spdl4j.offheap.batch.Batch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Video clip sampling on the library's {@link Loader}: a {@link VideoClipDecoder} writes each clip's {@code T} frames,
 * spread evenly over it, straight into its {@code [T, H, W, 3]} slot of a {@code [B, T, H, W, 3]} uint8 batch. Without
 * {@code --data} it encodes its own small clips first ({@link SampleClips}), whose frames carry their index, and
 * prints which frames each batch's first clip holds.
 *
 * <p>Run: {@code bin/spdl4j-java -cp "examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar:examples/target/lib/*"
 * org.spdl4j.examples.video.VideoClipExample [--data DIR] [--frames 8] [--batch 4]}
 */
@Command(name = "video-clips", mixinStandardHelpOptions = true,
    description = "Samples T frames per clip into [B, T, H, W, 3] off-heap batches.")
public final class VideoClipExample implements Callable<Integer> {
    private static final int SAMPLE_FPS = 24;

    @Spec
    private CommandSpec spec;

    @Option(names = "--data", description = "folder of video files (default: generated sample clips)")
    private Path data;

    @Option(names = "--clips", defaultValue = "16", description = "sample clips to generate (default ${DEFAULT-VALUE})")
    private int clips;

    @Option(names = "--frames", defaultValue = "8", description = "T: frames sampled per clip")
    private int frames;

    @Option(names = "--size", defaultValue = "112", description = "output frame height and width")
    private int size;

    @Option(names = "--batch", defaultValue = "4", description = "clips per batch")
    private int batch;

    @Option(names = "--threads", defaultValue = "2", description = "decode threads")
    private int threads;

    /** Creates the command with its defaults (picocli sets the options). */
    public VideoClipExample() {
    }

    /**
     * Runs the example.
     *
     * @param args command-line options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(ExampleCommands.execute(new VideoClipExample(), args));
    }

    /** {@return where the generated clips go: reused by the next run} */
    public static Path sampleFolder() {
        return Path.of(System.getProperty("java.io.tmpdir"), "spdl4j-examples", "clips");
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (frames < 1 || size < 16 || batch < 1 || threads < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "need --frames >= 1, --size >= 16, --batch >= 1, --threads >= 1");
        }
        Path dir = data != null ? data : sampleFolder();
        if (data == null) {
            SampleClips.ensure(dir, clips, 160, 96, 48, SAMPLE_FPS);
        } else if (!Files.isDirectory(data)) {
            throw new IOException("--data " + data + " is not a folder of video files");
        }
        ImageSpec frameSpec = ImageSpec.exact(size, size, PixelFormat.RGB24);
        long start = System.nanoTime();
        int batches = 0;
        int samples = 0;
        try (Loader<Batch> loader = Loader.builder().name("video")
                .source(SampleSource.folder(dir, SampleSource.VIDEO_EXTENSIONS))
                .decoder(VideoClipDecoder.of(frames, frameSpec))
                .batchSize(batch).decodeConcurrency(threads).shuffle(false).build()) {
            for (LoadedBatch<Batch> b : loader) {
                try (b) {
                    batches++;
                    samples += b.size();
                    out.printf(Locale.ROOT, "batch %d: [%d, %d, %d, %d, 3]  first clip %s frames %s%n", batches,
                        b.size(), frames, size, size, b.key(0), data == null ? indicesOf(b.data(), 0, frameSpec)
                            : "-");
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            out.printf(Locale.ROOT, "%d clips (%d failed) in %d batches, %.2f s: %.1f clips/s, %.1f frames/s%n",
                samples, loader.failures(), batches, seconds, samples / seconds, samples * frames / seconds);
            StageTable.print(loader.stats(), out);
        }
        out.flush();
        return 0;
    }

    /** The frame indices encoded in the sampled frames of sample {@code i} (generated clips only; allocates). */
    static String indicesOf(Batch b, int i, ImageSpec frameSpec) {
        int frameBytes = frameSpec.bytes();
        int t = b.descriptor().sampleBytes() / frameBytes;
        byte[] pixels = new byte[b.descriptor().sampleBytes()];
        b.lease().buffer().getBytes((int) (b.sampleAddress(i) - b.lease().address()), pixels);
        int[] idx = new int[t];
        for (int k = 0; k < t; k++) {
            idx[k] = SampleClips.frameIndex(pixels, k * frameBytes, frameSpec.width(), frameSpec.height(), 3);
        }
        return Arrays.toString(idx);
    }
}
