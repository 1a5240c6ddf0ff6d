package org.spdl4j.examples.cli;

import java.util.Locale;
import org.spdl4j.engine.stats.ProcessMetrics;

/**
 * Whole-run figures for the summary: wall time, time to the first batch, images/s, CPU use (percent of one core and
 * of the machine) and peak RSS. Used by one thread.
 */
final class RunMetrics {
    private long startNanos;
    private double startCpu;
    private long firstBatchNanos = -1;
    private long endNanos;
    private double endCpu;
    private long images;
    private long batches;

    void start() {
        startNanos = System.nanoTime();
        startCpu = ProcessMetrics.cpuSeconds();
    }

    void firstBatch() {
        firstBatchNanos = System.nanoTime();
    }

    void end(long imageCount, long batchCount) {
        endNanos = System.nanoTime();
        endCpu = ProcessMetrics.cpuSeconds();
        images = imageCount;
        batches = batchCount;
    }

    double seconds() {
        return (endNanos - startNanos) / 1e9;
    }

    double imagesPerSecond() {
        return images / seconds();
    }

    long images() {
        return images;
    }

    double elapsedSeconds(long nowNanos) {
        return (nowNanos - startNanos) / 1e9;
    }

    /**
     * The summary's two lines; a run that delivered no batch says so ({@code no batch}) rather than timing one.
     *
     * @param decodeFailures images that could not be read or decoded
     * @return the lines
     */
    String describe(long decodeFailures) {
        double wall = seconds();
        double cpu = endCpu - startCpu;
        int cores = Runtime.getRuntime().availableProcessors();
        String firstBatch = firstBatchNanos < 0 ? "no batch"
            : String.format(Locale.ROOT, "first batch after %.3f s", (firstBatchNanos - startNanos) / 1e9);
        String perImage = images == 0 ? "no images"
            : String.format(Locale.ROOT, "%.2f cpu-s per 1,000 images", cpu / images * 1000);
        return String.format(Locale.ROOT,
            "throughput: %d images in %d batches, %.2f s, %.1f img/s; %s; %d failed to read or decode%n"
                + "cpu: %.2f s = %.0f%% of one core, %.0f%% of %d cores; %s; peak RSS %.0f MiB",
            images, batches, wall, images / wall, firstBatch, decodeFailures, cpu, 100 * cpu / wall,
            100 * cpu / wall / cores, cores, perImage, ProcessMetrics.peakRssMiB());
    }
}
