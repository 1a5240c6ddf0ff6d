package org.spdl4j.examples.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.PipelineStats;
import org.spdl4j.engine.stats.StageSnapshot;
import org.spdl4j.engine.stats.StatsTable;
import org.spdl4j.examples.report.ChartAxis;
import org.spdl4j.examples.report.HtmlReport;
import org.spdl4j.examples.report.PercentileCurves;
import org.spdl4j.examples.report.SvgChart;
import org.spdl4j.examples.report.TaskTrace;

/**
 * Writes {@code --report DIR}: {@code index.html} (the stage table, each count and rate in its stage's unit; task-time
 * percentile curves per stage; throughput and ring occupancy over time, as inline SVG), {@code run.hlog} (already
 * written by then) and {@code trace.json}.
 */
final class RunReport {
    private RunReport() {
    }

    /**
     * The run, as the report describes it.
     *
     * @param title    what ran, in a few words
     * @param subtitle the command line and the run's settings
     * @param units    what each stage counts
     */
    record Header(String title, String subtitle, StageUnits units) {
    }

    static void write(Path dir, Header header, PipelineStats stats, PipelineSnapshot last, String summary,
                      StatsSampler sampler, TaskTrace trace) throws IOException {
        HtmlReport page = new HtmlReport(header.title(), header.subtitle());
        page.heading("Stages");
        stageTable(page, last, header.units());
        page.paragraph(StatsTable.verdict(last));
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        for (StageSnapshot s : last.stages()) {
            if (s.tasks() > 0) {
                histograms.put(s.stage(), stats.copyAccumulatedTaskHistogram(s.stage()));
            }
        }
        page.heading("Task time by stage");
        page.chart(PercentileCurves.chart("task time by stage (percentile curves)", histograms));
        page.heading("Over time");
        String unit = header.units().sampleUnit();
        page.chart(timeChart("throughput over time", unit + "/s", Map.of(unit + "/s", sampler.throughputSeries())));
        Map<String, List<double[]>> rings = sampler.ringSeries();
        if (!rings.isEmpty()) {
            page.chart(timeChart("ring occupancy over time (each stage's input ring)", "occupancy, % of capacity",
                rings));
        }
        List<String> files = new ArrayList<>(List.of("run.hlog"));
        if (trace != null) {
            trace.write(dir.resolve("trace.json"));
            files.add("trace.json");
        }
        page.heading("Summary");
        page.preformatted(summary);
        page.heading("Data");
        page.files(files);
        page.write(dir.resolve("index.html"));
    }

    private static void stageTable(HtmlReport page, PipelineSnapshot last, StageUnits units) {
        List<List<String>> rows = new ArrayList<>();
        int bottleneck = -1;
        double seconds = Math.max(1e-9, last.wallNanos() / 1e9);
        for (StageSnapshot s : last.stages()) {
            String stage = s.stage();
            long counted = units.rateCountsInput(stage) ? s.itemsIn() : s.itemsOut();
            boolean timed = s.tasks() > 0;
            rows.add(List.of(stage, Integer.toString(s.workers()), s.itemsIn() + " " + units.in(stage),
                s.itemsOut() + " " + units.out(stage), Long.toString(s.failures()),
                String.format(Locale.ROOT, "%.1f %s", counted / seconds, units.rate(stage)),
                timed ? StatsTable.nanos(s.p50Nanos()) : "-", timed ? StatsTable.nanos(s.p90Nanos()) : "-",
                timed ? StatsTable.nanos(s.p99Nanos()) : "-", timed ? StatsTable.nanos(s.maxNanos()) : "-",
                percent(s.busyPercent()) + " / " + percent(s.starvedPercent()) + " / "
                    + percent(s.backPressuredPercent())));
            if (s.bottleneck()) {
                bottleneck = rows.size() - 1;
            }
        }
        page.table(List.of("stage", "workers", "in", "out", "failed", "rate (whole run)", "p50 task", "p90 task",
            "p99 task", "max task", "busy / starved / back-pressured, % of time"), rows, bottleneck);
    }

    private static SvgChart timeChart(String title, String yTitle, Map<String, List<double[]>> series) {
        SvgChart chart = new SvgChart(title, new ChartAxis("seconds since start", ChartAxis.Scale.LINEAR),
            new ChartAxis(yTitle, ChartAxis.Scale.LINEAR));
        series.forEach((name, points) -> {
            double[] xs = new double[points.size()];
            double[] ys = new double[points.size()];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = points.get(i)[0];
                ys[i] = points.get(i)[1];
            }
            chart.add(name, xs, ys);
        });
        return chart;
    }

    private static String percent(double p) {
        return String.format(Locale.ROOT, "%.1f", Math.clamp(p, 0.0, 100.0));
    }
}
