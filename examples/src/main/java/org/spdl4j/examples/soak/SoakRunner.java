package org.spdl4j.examples.soak;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.examples.sample.SampleImages;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.offheap.SystemProperties;
import org.spdl4j.offheap.batch.Batch;

/**
 * The soak: runs the image loader ({@link Loader} with {@link ImageSlotDecoder#evaluation}, a new loader per epoch, so
 * pools, threads and FFmpeg contexts go through their whole life cycle each time) over and over for a given time, sampling RSS, heap, direct
 * and pooled off-heap memory, FFmpeg objects and threads at a fixed interval; writes {@code soak.csv} and
 * {@code soak.svg} and prints the RSS growth after warm-up. The last epoch is cut short at the deadline (an early
 * close, like a training loop that stops).
 *
 * <p>Settings ({@code spdl4j.soak.*}): sample interval {@value #DEFAULT_INTERVAL_SECONDS} s, warm-up
 * {@value #DEFAULT_WARM_UP_SECONDS} s (a fifth of the run when the run is shorter than twice that), pass mark
 * {@value #DEFAULT_MAX_GROWTH_PERCENT}% growth. The seconds are whole and positive, the pass mark a non-negative
 * number; a value that does not parse or is out of range fails this class's initialisation naming the property
 * ({@link SystemProperties}). Runs on the calling thread plus one sampler thread.
 */
public final class SoakRunner {
    /** Seconds between samples unless {@code spdl4j.soak.intervalSeconds} says otherwise. */
    public static final long DEFAULT_INTERVAL_SECONDS = 10;
    /** Warm-up seconds unless {@code spdl4j.soak.warmUpSeconds} says otherwise. */
    public static final long DEFAULT_WARM_UP_SECONDS = 60;
    /** The pass mark: RSS growth after warm-up below this percentage ({@code spdl4j.soak.maxGrowthPercent}). */
    public static final double DEFAULT_MAX_GROWTH_PERCENT = 5.0;
    /** Images generated into an empty data folder. */
    public static final int SAMPLE_IMAGES = 512;
    /** The short side before the centre crop. */
    private static final int SHORT_SIDE = 256;
    /** The crop's side. */
    private static final int CROP = 224;

    /** The most seconds an interval or a warm-up may be set to: their nanoseconds, doubled, still fit a long. */
    private static final long MAX_SECONDS = Integer.MAX_VALUE;

    static final Duration INTERVAL = Duration.ofSeconds(SystemProperties.longValue("spdl4j.soak.intervalSeconds",
            DEFAULT_INTERVAL_SECONDS, 1, MAX_SECONDS));
    static final Duration WARM_UP = Duration.ofSeconds(SystemProperties.longValue("spdl4j.soak.warmUpSeconds",
            DEFAULT_WARM_UP_SECONDS, 1, MAX_SECONDS));
    static final double MAX_GROWTH = SystemProperties.doubleValue("spdl4j.soak.maxGrowthPercent",
            DEFAULT_MAX_GROWTH_PERCENT, 0, Double.MAX_VALUE);

    private SoakRunner() {
    }

    /**
     * Runs a soak from the command line (the launcher's {@code spdl4j soak} calls {@link #run} directly).
     *
     * @param args {@code MINUTES [DATA_DIR [OUT_DIR]]}; data defaults to {@code target/soak-data} (the built-in
     *             sample is generated there), output to {@code target/soak}
     */
    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: SoakRunner MINUTES [DATA_DIR [OUT_DIR]]");
            System.exit(2);
        }
        Duration duration = Duration.ofSeconds(Math.round(Double.parseDouble(args[0]) * 60));
        Path data = Path.of(args.length > 1 ? args[1] : "target/soak-data");
        Path outDir = Path.of(args.length > 2 ? args[2] : "target/soak");
        System.exit(run(data, duration, outDir, new PrintWriter(System.out, true)));
    }

    /**
     * Runs a soak with the configured sample interval.
     *
     * @param data     a folder of images (class sub-folders, or images directly in it); the built-in sample is
     *                 generated there if it has none
     * @param duration how long to run
     * @param outDir   where {@code soak.csv} and {@code soak.svg} go
     * @param out      where the summary is printed
     * @return 0 when RSS grew less than the pass mark after warm-up, 1 when it grew more (or could not be measured)
     */
    public static int run(Path data, Duration duration, Path outDir, PrintWriter out) {
        return run(data, duration, INTERVAL, outDir, out);
    }

    /**
     * Runs a soak.
     *
     * @param data     a folder of images (class sub-folders, or images directly in it); the built-in sample is
     *                 generated there if it has none
     * @param duration how long to run
     * @param interval time between samples
     * @param outDir   where {@code soak.csv} and {@code soak.svg} go
     * @param out      where the summary is printed
     * @return 0 when RSS grew less than the pass mark after warm-up, 1 when it grew more (or could not be measured)
     */
    public static int run(Path data, Duration duration, Duration interval, Path outDir, PrintWriter out) {
        long count = images(data);
        SampleSource files = SampleSource.folder(data);
        Duration warmUp = duration.compareTo(WARM_UP.multipliedBy(2)) < 0 ? duration.dividedBy(5) : WARM_UP;
        out.printf(Locale.ROOT, "spdl4j soak: %d images from %s, the loader's defaults (resize %d, center crop %d),"
                + " for %s (warm-up %s), a sample every %s%n", count, data, SHORT_SIDE, CROP, duration, warmUp,
                interval);
        out.flush();

        AtomicLong images = new AtomicLong();
        AtomicLong epochs = new AtomicLong();
        List<MemorySample> samples = Collections.synchronizedList(new ArrayList<>());
        MemoryProbe probe = new MemoryProbe();
        long durationNanos = duration.toNanos(); // before the sampler starts: an overflow leaves no thread behind
        long start = System.nanoTime();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "soak-sampler");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleAtFixedRate(() -> samples.add(probe.sample((System.nanoTime() - start) / 1e9, images.get(),
                epochs.get())), 0, interval.toNanos(), TimeUnit.NANOSECONDS);
        try {
            // Elapsed time against the duration, never nanoTime against start + duration: that sum can overflow.
            while (System.nanoTime() - start < durationNanos) {
                runEpoch(files, epochs.get(), start, durationNanos, images);
                epochs.incrementAndGet();
            }
        } finally {
            sampler.shutdownNow();
            awaitQuietly(sampler);
        }
        samples.add(probe.sample((System.nanoTime() - start) / 1e9, images.get(), epochs.get()));
        return report(new SoakReport(samples, warmUp.toNanos() / 1e9), outDir, out, images.get(), epochs.get(),
                (System.nanoTime() - start) / 1e9);
    }

    private static void runEpoch(SampleSource files, long epoch, long start, long durationNanos, AtomicLong images) {
        try (Loader<Batch> loader = Loader.builder().name("soak").source(files)
                .decoder(ImageSlotDecoder.evaluation(SHORT_SIDE, CROP)).seed(epoch).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                images.addAndGet(batch.size());
                batch.close();
                if (System.nanoTime() - start >= durationNanos) {
                    break; // the consumer stops mid-epoch: close must give everything back
                }
            }
        }
    }

    private static int report(SoakReport report, Path outDir, PrintWriter out, long images, long epochs,
                              double seconds) {
        try {
            report.write(outDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the soak report to " + outDir, e);
        }
        List<MemorySample> after = report.afterWarmUp();
        double growth = report.rssGrowthPercent();
        out.printf(Locale.ROOT, "ran %.1f min: %d epochs, %d images (%.0f images/s), %d samples%n", seconds / 60,
                epochs, images, images / seconds, report.samples().size());
        long[] peaks = report.windowPeaksKiB();
        if (peaks.length >= 2) {
            StringBuilder list = new StringBuilder();
            for (long p : peaks) {
                list.append(list.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", p / 1024.0));
            }
            out.printf(Locale.ROOT, "RSS after warm-up, peak per window of %.1f min: %s MiB: growth %.2f%% "
                    + "(last window against the first; pass mark < %.1f%%)%n",
                    (after.get(after.size() - 1).seconds() - after.get(0).seconds()) / 60 / peaks.length, list,
                    growth, MAX_GROWTH);
        } else {
            out.println(after.stream().anyMatch(m -> m.rssKiB() < 0)
                    ? "RSS growth: not measured (no VmRSS in /proc/self/status on this platform)"
                    : "RSS growth: not measured (fewer than " + 2 * SoakReport.MIN_WINDOW_SAMPLES
                    + " samples after warm-up; run longer)");
        }
        out.printf(Locale.ROOT, "wrote %s and %s%n", outDir.resolve(SoakReport.CSV), outDir.resolve(SoakReport.SVG));
        out.flush();
        if (images == 0) { // a soak that decoded nothing measured the memory of failures: not a pass
            out.println("soak failed: no image was delivered in " + String.format(Locale.ROOT, "%.1f", seconds)
                    + " s (every read or decode failed?); check --data");
            out.flush();
            return 1;
        }
        return exitStatus(growth, MAX_GROWTH);
    }

    /**
     * The soak's verdict on an RSS growth figure: 0 (pass) when it is below the pass mark
     * ({@code spdl4j.soak.maxGrowthPercent}, default {@value #DEFAULT_MAX_GROWTH_PERCENT} %), 1 otherwise, including
     * when the growth could not be measured ({@code NaN}: too short a run, or no RSS on this platform).
     */
    static int exitStatus(double rssGrowthPercent, double maxGrowthPercent) {
        return rssGrowthPercent < maxGrowthPercent ? 0 : 1; // NaN compares false: unmeasured fails
    }

    /** {@return the images in {@code data}, after generating the built-in sample there if it holds none} */
    private static long images(Path data) {
        long n = Files.isDirectory(data) ? count(data) : 0;
        if (n == 0) {
            SampleImages.ensure(data, SAMPLE_IMAGES);
            n = count(data);
        }
        return n;
    }

    /** {@return the images {@link SampleSource#folder(Path)} finds: in class sub-folders, else directly in it} */
    private static long count(Path data) {
        FolderDataset classes = FolderDataset.scan(data, SampleSource.IMAGE_EXTENSIONS);
        return classes.size() > 0 ? classes.size() : FolderDataset.scanFlat(data, SampleSource.IMAGE_EXTENSIONS).size();
    }

    private static void awaitQuietly(ScheduledExecutorService sampler) {
        try {
            sampler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
