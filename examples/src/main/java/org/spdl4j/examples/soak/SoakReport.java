package org.spdl4j.examples.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.spdl4j.examples.report.ChartAxis;
import org.spdl4j.examples.report.SvgChart;

/**
 * What a soak measured: the samples as a CSV ({@code soak.csv}), a plot of memory and threads over time
 * ({@code soak.svg}), and the figure that matters, resident memory growth after warm-up.
 *
 * <p>Growth: the samples after warm-up are cut into up to {@value #MAX_WINDOWS} windows of equal sample count (at
 * least {@value #MIN_WINDOW_SAMPLES} samples each); the figure is the last window's peak VmRSS against the first
 * window's, in percent of the first. Peaks, not single samples or medians: a workload whose RSS swings (a large image
 * decoded now and then holds a big frame for a moment) puts a sample high or low by chance, while every window of
 * many samples catches its top; a leak raises the top window after window. Immutable.
 *
 * @param samples      the samples in time order
 * @param warmUpSeconds samples before this are warm-up (JIT, pools, malloc arenas, FFmpeg frame pools filling up)
 */
public record SoakReport(List<MemorySample> samples, double warmUpSeconds) {
    /** CSV file name inside the output folder. */
    public static final String CSV = "soak.csv";
    /** Plot file name inside the output folder. */
    public static final String SVG = "soak.svg";
    /** The most windows the samples after warm-up are cut into. */
    public static final int MAX_WINDOWS = 6;
    /** The fewest samples a window holds. */
    public static final int MIN_WINDOW_SAMPLES = 2;

    /**
     * Copies the samples.
     *
     * @param samples       the samples
     * @param warmUpSeconds warm-up length
     */
    public SoakReport {
        samples = List.copyOf(samples);
    }

    /** {@return the samples taken after warm-up} */
    public List<MemorySample> afterWarmUp() {
        return samples.stream().filter(s -> s.seconds() >= warmUpSeconds).toList();
    }

    /**
     * {@return the peak VmRSS (KiB) of each window after warm-up, in time order; empty with fewer than two windows'
     * worth of samples or when RSS could not be read}
     */
    public long[] windowPeaksKiB() {
        List<MemorySample> after = afterWarmUp();
        int windows = Math.min(MAX_WINDOWS, after.size() / MIN_WINDOW_SAMPLES);
        if (windows < 2 || after.stream().anyMatch(m -> m.rssKiB() < 0)) {
            return new long[0]; // too short, or RSS unreadable (not Linux): unmeasured
        }
        long[] peaks = new long[windows];
        for (int w = 0; w < windows; w++) {
            int from = (int) ((long) after.size() * w / windows);
            int to = (int) ((long) after.size() * (w + 1) / windows);
            peaks[w] = after.subList(from, to).stream().mapToLong(MemorySample::rssKiB).max().orElseThrow();
        }
        return peaks;
    }

    /** {@return RSS growth after warm-up in percent (last window's peak against the first's), or NaN unmeasured} */
    public double rssGrowthPercent() {
        long[] peaks = windowPeaksKiB();
        if (peaks.length < 2) {
            return Double.NaN; // unmeasured fails the run
        }
        return 100.0 * (peaks[peaks.length - 1] - peaks[0]) / peaks[0];
    }

    /**
     * Writes {@value #CSV} and {@value #SVG} into a folder.
     *
     * @param dir the output folder (created if needed)
     * @throws IOException when a file cannot be written
     */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> lines = new ArrayList<>(samples.size() + 1);
        lines.add(MemorySample.CSV_HEADER);
        for (MemorySample s : samples) {
            lines.add(s.csvRow());
        }
        Files.write(dir.resolve(CSV), lines);
        chart().writeSvg(dir.resolve(SVG));
    }

    private SvgChart chart() {
        double[] t = samples.stream().mapToDouble(s -> s.seconds() / 60).toArray();
        SvgChart c = new SvgChart(String.format(java.util.Locale.ROOT,
                "spdl4j soak: image pipeline, RSS growth after warm-up %.2f%%", rssGrowthPercent()),
            new ChartAxis("minutes", ChartAxis.Scale.LINEAR), new ChartAxis("MiB (threads: count)",
                ChartAxis.Scale.LINEAR));
        c.add("RSS", t, mib(samples.stream().mapToLong(s -> s.rssKiB() * 1024).toArray()));
        c.add("heap committed", t, mib(samples.stream().mapToLong(MemorySample::heapCommitted).toArray()));
        c.add("heap used", t, mib(samples.stream().mapToLong(MemorySample::heapUsed).toArray()));
        c.add("pools (off-heap)", t, mib(samples.stream().mapToLong(MemorySample::poolBytes).toArray()));
        c.add("direct buffers", t, mib(samples.stream().mapToLong(MemorySample::directBytes).toArray()));
        c.add("threads (count)", t, samples.stream().mapToDouble(MemorySample::threads).toArray());
        return c;
    }

    private static double[] mib(long[] bytes) {
        return Arrays.stream(bytes).mapToDouble(b -> b / (1024.0 * 1024.0)).toArray();
    }
}
