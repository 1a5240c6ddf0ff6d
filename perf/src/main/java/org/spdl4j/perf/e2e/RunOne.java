package org.spdl4j.perf.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.spdl4j.engine.stats.ProcessMetrics;

/**
 * Runs one contender once in this JVM and prints one result line in the format of torch_baseline.py, so the harness
 * parses every contender the same way:
 * {@code mode=.. workers=.. images=.. seconds=.. img_per_s=.. first_batch_s=.. cpu_s=.. peak_rss_mb_total=..}.
 *
 * <p>usage: {@code RunOne CONTENDER IMAGE_DIR THREADS [EPOCHS]}
 */
public final class RunOne {
    /** The contender whose one-thread rate, times the threads, is the limit. */
    static final String LIMIT = "limit";

    private RunOne() {
    }

    /** {@return the contenders by name} */
    static Map<String, Supplier<Contender>> contenders() {
        return Map.of("executor+imageio", ImageIoBaseline::new, "executor+ffmpeg", FfmpegExecutorBaseline::new,
            "spdl4j", Spdl4jContender::new, LIMIT, IndependentThreadsLimit::new);
    }

    /**
     * Lists the images under a folder, sorted, as torch_baseline.py does.
     *
     * @param root the folder
     * @return image files
     * @throws IOException when the folder cannot be read
     */
    public static List<Path> images(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).filter(p -> {
                String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                return n.endsWith(".jpg") || n.endsWith(".jpeg") || n.endsWith(".png") || n.endsWith(".webp")
                    || n.endsWith(".bmp");
            }).sorted().toList();
        }
    }

    /**
     * Entry point.
     *
     * @param args contender, image folder, threads, optional epochs
     * @throws Exception when the run fails
     */
    public static void main(String[] args) throws Exception {
        Supplier<Contender> factory = contenders().get(args[0]);
        if (factory == null) {
            throw new IllegalArgumentException("unknown contender '" + args[0] + "'; known: " + contenders().keySet());
        }
        List<Path> files = images(Path.of(args[1]));
        int threads = Integer.parseInt(args[2]);
        int epochs = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        Contender contender = factory.get();
        long t0 = System.nanoTime();
        long[] first = {-1};
        long[] images = {0};
        for (int e = 0; e < epochs; e++) {
            contender.run(files, threads, samples -> {
                if (first[0] < 0) {
                    first[0] = System.nanoTime();
                }
                images[0] += samples;
            });
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT,
            "mode=%s workers=%d images=%d seconds=%.2f img_per_s=%.1f first_batch_s=%.3f cpu_s=%.2f peak_rss_mb_total=%.0f%n",
            contender.name(), threads, images[0], seconds, images[0] / seconds, (first[0] - t0) / 1e9,
            ProcessMetrics.cpuSeconds(), ProcessMetrics.peakRssMiB());
    }
}
