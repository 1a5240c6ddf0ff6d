package org.spdl4j.examples.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.PipelineStats;
import org.spdl4j.engine.stats.StageSnapshot;
import org.spdl4j.examples.report.HtmlReport;
import org.spdl4j.examples.report.LineChart;
import org.spdl4j.examples.report.PercentileCurves;
import org.spdl4j.examples.report.TaskTrace;

/** Writes {@code --report DIR}: index.html, latency.png, throughput.png, run.hlog (already written), trace.json. */
final class RunReport {
    private RunReport() {
    }

    static void write(Path dir, PipelineStats stats, PipelineSnapshot last, String summary, List<double[]> throughput,
                      TaskTrace trace) throws IOException {
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        for (StageSnapshot s : last.stages()) {
            if (s.tasks() > 0) {
                histograms.put(s.stage(), stats.copyAccumulatedTaskHistogram(s.stage()));
            }
        }
        PercentileCurves.write("task time by stage (percentile curves)", histograms, dir.resolve("latency.png"));
        double[] xs = new double[throughput.size()];
        double[] ys = new double[throughput.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = throughput.get(i)[0];
            ys[i] = throughput.get(i)[1];
        }
        new LineChart("throughput over time", "seconds", "images/s").add("images/s", xs, ys)
            .writePng(dir.resolve("throughput.png"));
        List<String> files = new ArrayList<>(List.of("run.hlog"));
        if (trace != null) {
            trace.write(dir.resolve("trace.json"));
            files.add("trace.json");
        }
        HtmlReport.write(dir, "spdl4j run: " + last.pipeline(), summary, List.of("latency.png", "throughput.png"), files);
    }
}
