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
 * <p>Growth: the median VmRSS of the first three samples at or after the warm-up against the median of the last three
 * (medians, so one sample caught mid-GC does not decide), in percent of the first. Immutable.
 *
 * @param samples      the samples in time order
 * @param warmUpSeconds samples before this are warm-up (JIT, pools, malloc arenas, FFmpeg frame pools filling up)
 */
public record SoakReport(List<MemorySample> samples, double warmUpSeconds) {
    /** CSV file name inside the output folder. */
    public static final String CSV = "soak.csv";
    /** Plot file name inside the output folder. */
    public static final String SVG = "soak.svg";

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

    /** {@return RSS growth after warm-up in percent, or NaN with fewer than two samples after warm-up} */
    public double rssGrowthPercent() {
        List<MemorySample> after = afterWarmUp();
        if (after.size() < 2 || after.stream().anyMatch(m -> m.rssKiB() < 0)) {
            return Double.NaN; // too short, or RSS unreadable (not Linux): unmeasured, which fails the run
        }
        int k = Math.min(3, after.size() / 2);
        double first = medianRss(after.subList(0, k));
        double last = medianRss(after.subList(after.size() - k, after.size()));
        return 100.0 * (last - first) / first;
    }

    private static double medianRss(List<MemorySample> s) {
        long[] v = s.stream().mapToLong(MemorySample::rssKiB).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2.0;
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
