package org.spdl4j.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.spdl4j.engine.stats.StatsTable;
import org.spdl4j.examples.report.HtmlReport;
import org.spdl4j.examples.report.PercentileCurves;
import org.spdl4j.examples.report.RunComparison;
import org.spdl4j.examples.report.RunLog;
import org.spdl4j.examples.report.StageFigures;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spdl4j compare A B}: two runs (report folders of {@code spdl4j run --report}, or their {@code .hlog} files)
 * side by side, per stage: p50, p90, p99, p99.9, max task time and tasks per second, the change, and whether it is
 * beyond run-to-run noise ({@link RunComparison}: each run's noise from a bootstrap over its own intervals). Prints a
 * table and writes {@code compare.html} with both runs' percentile curves on one chart.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = "Compare two runs stage by stage and say which changes are beyond run-to-run noise.")
final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "the baseline: a report folder (holding run.hlog) or a"
        + " .hlog file")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "the run to compare with it, the same way")
    Path b;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".",
        description = "where compare.html goes (default .)")
    Path outDir;

    @Override
    public Integer call() throws IOException {
        OutputPaths.checkDirectory(spec, "--out", outDir);
        RunLog runA = read("A", a);
        RunLog runB = read("B", b);
        RunComparison cmp = RunComparison.of(runA, runB);
        PrintWriter out = spec.commandLine().getOut();
        StageUnits units = new StageUnits("samples");
        out.printf(Locale.ROOT, "spdl4j compare: A = %s, B = %s%n", runA.source(), runB.source());
        out.printf(Locale.ROOT, "beyond noise: a change over %.0f standard deviations of the two runs' noise (a"
            + " bootstrap over each run's intervals) and at least %.0f%%%n", RunComparison.SIGMAS,
            RunComparison.MIN_CHANGE_PERCENT);
        List<String> header = List.of("stage", "figure", "A", "B", "change", "noise band", "verdict");
        List<List<String>> rows = new ArrayList<>();
        for (RunComparison.Row r : cmp.rows()) {
            rows.add(List.of(r.stage(), r.metric().label(), figure(r, r.a(), units), figure(r, r.b(), units),
                String.format(Locale.ROOT, "%+.1f%%", r.changePercent()),
                String.format(Locale.ROOT, "+-%.1f%%", r.thresholdPercent()),
                verdict(r)));
        }
        printTable(out, header, rows);
        for (String s : cmp.onlyInA()) {
            out.println("stage " + s + ": only in A");
        }
        for (String s : cmp.onlyInB()) {
            out.println("stage " + s + ": only in B");
        }
        if (cmp.rows().stream().anyMatch(r -> !r.enoughIntervals())) {
            out.printf(Locale.ROOT, "note: a stage with fewer than %d intervals in a run is not judged; record more"
                + " (a longer run, or spdl4j run --interval-ms 100)%n", RunComparison.MIN_INTERVALS);
        }
        String verdict = verdict(cmp);
        out.println(verdict);
        Files.createDirectories(outDir);
        Path page = outDir.resolve("compare.html");
        new HtmlReport("spdl4j compare: " + runA.source() + " vs " + runB.source(), verdict)
            .heading("Stages").table(header, rows, -1)
            .heading("Task time, A solid, B dashed")
            .chart(PercentileCurves.overlay("task time by stage: A (solid) vs B (dashed)", "A", runA.merged(), "B",
                runB.merged()))
            .paragraph("A = " + runA.source() + "; B = " + runB.source() + ". Beyond noise: a change over "
                + RunComparison.SIGMAS + " standard deviations of the two runs' noise combined (each from a"
                + " bootstrap over that run's own interval histograms) and at least "
                + RunComparison.MIN_CHANGE_PERCENT + "%.")
            .write(page);
        out.println("compare page: " + page);
        out.flush();
        return 0;
    }

    /** Reads a run; a path that is not one is a bad argument. */
    private RunLog read(String name, Path path) {
        try {
            return RunLog.read(path);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), name + ": " + e.getMessage());
        }
    }

    private static String verdict(RunComparison.Row r) {
        if (!r.enoughIntervals()) {
            return "too few intervals (" + r.intervals() + ")";
        }
        return r.beyondNoise() ? (r.b() > r.a() ? "UP, beyond noise" : "DOWN, beyond noise") : "within noise";
    }

    /** {@return the last line: what changed beyond noise, or that nothing did} */
    static String verdict(RunComparison cmp) {
        List<RunComparison.Row> changes = cmp.changes();
        if (changes.isEmpty()) {
            return "verdict: no change beyond noise";
        }
        List<String> parts = new ArrayList<>();
        for (RunComparison.Row r : changes) {
            parts.add(String.format(Locale.ROOT, "%s %s %+.1f%%", r.stage(), r.metric().label(), r.changePercent()));
        }
        return "verdict: beyond noise: " + String.join(", ", parts);
    }

    private static String figure(RunComparison.Row r, double v, StageUnits units) {
        return r.metric() == StageFigures.Metric.RATE
            ? String.format(Locale.ROOT, "%.1f %s", v, units.rate(r.stage()))
            : StatsTable.nanos(Math.round(v));
    }

    private static void printTable(PrintWriter out, List<String> header, List<List<String>> rows) {
        int[] width = new int[header.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (List<String> row : all) {
            for (int c = 0; c < row.size(); c++) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.size(); c++) {
                String cell = row.get(c);
                boolean left = c < 2 || c == row.size() - 1;
                line.append(c == 0 ? "" : "  ");
                line.append(left ? cell + " ".repeat(width[c] - cell.length())
                    : " ".repeat(width[c] - cell.length()) + cell);
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
