package org.spdl4j.examples.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.spdl4j.engine.stats.ProcessMetrics;

/**
 * Whole-run figures for the summary: wall time, time to the first batch, samples/s (images, or clips), CPU use
 * (percent of one core and of the machine) and peak RSS. Used by one thread.
 *
 * <p>Two clocks start a run: {@link #building()}, when the loader starts being built (FFmpeg loaded, pools
 * allocated, threads started), and {@link #start()}, when the built pipeline starts. Wall time, images/s and CPU are
 * from {@link #start()}: the pipeline's own pace. The first batch is timed from both: from {@link #start()}, and from
 * {@link #building()}, which is what a training loop that builds the loader and then asks for a batch waits.
 *
 * <p><b>Start-up</b>: the first batch is also timed from the process's start (as the kernel records it, to 10 ms,
 * {@link #processAgeSeconds};
 * with {@code ./spdl4j} that is the launcher's start, since it execs the JVM), which is what a one-epoch job waits
 * for JVM start, the command line and listing the data besides the loader; a third summary line.
 *
 * <p><b>Peak RSS</b> is the run's own peak, from {@link #building()} on, so it does not include what came before,
 * such as generating the built-in sample on first use: {@link #building()} resets the kernel's high-water mark
 * ({@code VmHWM}) by writing {@code 5} to {@code /proc/self/clear_refs} (Linux 4.0 and later). Where that write is
 * refused (another kernel, a locked-down container), the figure is the process's peak since the JVM started, and the
 * summary says so.
 */
final class RunMetrics {
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");
    /** USER_HZ, the unit of /proc's process times: 100 on every Linux architecture the JDK runs on. */
    private static final double CLOCK_TICKS_PER_SECOND = 100.0;

    private final LongSupplier clock;
    private final String unit;
    private final String rateUnit;
    private long buildNanos = -1;
    private boolean peakReset;
    private long startNanos;
    private double startCpu;
    private long firstBatchNanos = -1;
    private double firstBatchSinceProcessStart = -1;
    private double buildSinceProcessStart = -1;
    private long endNanos;
    private double endCpu;
    private long images;
    private long batches;

    RunMetrics() {
        this(System::nanoTime);
    }

    /**
     * Metrics of samples with other names than images.
     *
     * @param unit     what samples are called in counts ({@code clips})
     * @param rateUnit what they are called in rates ({@code clips})
     */
    RunMetrics(String unit, String rateUnit) {
        this(System::nanoTime, unit, rateUnit);
    }

    /**
     * Metrics of images read from a given clock (tests).
     *
     * @param clock nanoseconds, as {@link System#nanoTime()}
     */
    RunMetrics(LongSupplier clock) {
        this(clock, "images", "img");
    }

    private RunMetrics(LongSupplier clock, String unit, String rateUnit) {
        this.clock = clock;
        this.unit = unit;
        this.rateUnit = rateUnit;
    }

    /** The loader starts being built: the first batch's whole wait starts here, and the peak RSS is reset. */
    void building() {
        buildNanos = clock.getAsLong();
        buildSinceProcessStart = processAgeSeconds();
        peakReset = resetPeakRss();
    }

    /**
     * Resets this process's peak RSS (VmHWM) to its current RSS.
     *
     * @return whether it was reset ({@code false}: /proc/self/clear_refs is not there or not writable)
     */
    static boolean resetPeakRss() {
        try {
            Files.writeString(CLEAR_REFS, "5");
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    void start() {
        startNanos = clock.getAsLong();
        startCpu = ProcessMetrics.cpuSeconds();
    }

    void firstBatch() {
        firstBatchNanos = clock.getAsLong();
        firstBatchSinceProcessStart = processAgeSeconds();
    }

    /**
     * {@return seconds since this process started, to the kernel's clock tick (10 ms), or -1 where {@code /proc}
     * does not say} Both figures are counted from boot: {@code /proc/uptime} now against the start time in
     * {@code /proc/self/stat} (field 22, in clock ticks of 1/100 s). {@code ProcessHandle}'s start instant is not used:
     * it adds the boot time, which Linux gives in whole seconds, so it can be off by up to a second.
     */
    static double processAgeSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long startTicks = Long.parseLong(fields[22 - 3]); // fields after "pid (comm)" start at field 3
            double uptime = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
            return uptime - startTicks / CLOCK_TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    void end(long imageCount, long batchCount) {
        endNanos = clock.getAsLong();
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
     * @param decodeFailures samples that could not be read or decoded
     * @return the lines
     */
    String describe(long decodeFailures) {
        double wall = seconds();
        double cpu = endCpu - startCpu;
        int cores = Runtime.getRuntime().availableProcessors();
        String firstBatch = firstBatchNanos < 0 ? "no batch"
            : String.format(Locale.ROOT, "first batch after %.3f s", (firstBatchNanos - startNanos) / 1e9)
                + (buildNanos < 0 ? "" : String.format(Locale.ROOT, " (%.3f s counting the loader's construction)",
                    (firstBatchNanos - buildNanos) / 1e9));
        String perImage = images == 0 ? "no " + unit
            : String.format(Locale.ROOT, "%.2f cpu-s per 1,000 %s", cpu / images * 1000, unit);
        return String.format(Locale.ROOT,
            "throughput: %d %s in %d batches, %.2f s, %.1f %s/s; %s; %d failed to read or decode%n"
                + "cpu: %.2f s = %.0f%% of one core, %.0f%% of %d cores; %s; peak RSS %.0f MiB%s",
            images, unit, batches, wall, images / wall, rateUnit, firstBatch, decodeFailures, cpu, 100 * cpu / wall,
            100 * cpu / wall / cores, cores, perImage, ProcessMetrics.peakRssMiB(),
            peakReset ? "" : " (since the JVM started)") + startUp();
    }

    /** {@return the start-up line (with its line break before it), or nothing when it was not measured} */
    private String startUp() {
        if (firstBatchSinceProcessStart < 0 || buildSinceProcessStart < 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%nstart-up: first batch %.2f s after the process started (%.2f s of it"
            + " before the loader was built: JVM start, command line, listing the data)", firstBatchSinceProcessStart,
            buildSinceProcessStart);
    }
}
