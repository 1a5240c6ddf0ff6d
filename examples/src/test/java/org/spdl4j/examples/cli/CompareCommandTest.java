package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.engine.stats.StatsConfiguration;
import org.spdl4j.examples.report.HeadlessBrowser;
import org.spdl4j.examples.report.RunComparison;
import org.spdl4j.examples.sample.SampleImages;

/**
 * {@code spdl4j compare}: runs drawn from one distribution show no change beyond noise; a run with one stage slowed
 * is called out, naming that stage and the percentiles that moved, and no other stage.
 */
@Timeout(120)
class CompareCommandTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    record Result(int status, String out, String err) {
    }

    @Test
    void shouldFindNoChangeBeyondNoiseBetweenTwoRunsOfOneDistribution() throws Exception {
        Path a = log("a.hlog", 11, 1.0);
        Path b = log("b.hlog", 12, 1.0);
        Result r = compare(a.toString(), b.toString(), "--out", dir.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("read", "decode", "p50", "p99.9", "max", "rate", "samples/s")
            .contains("verdict: no change beyond noise").doesNotContain("UP, beyond noise", "DOWN, beyond noise");
        String html = Files.readString(dir.resolve("compare.html"));
        List<HeadlessBrowser.Series> series = HeadlessBrowser.series(html);
        assertThat(series).extracting(HeadlessBrowser.Series::name).containsExactly("read (A)", "read (B)",
            "decode (A)", "decode (B)");
        assertThat(html).contains("stroke-dasharray");
    }

    @Test
    void shouldNameTheSlowedStageAndThePercentileThatMoved() throws Exception {
        Path a = log("a.hlog", 21, 1.0);
        Path b = log("b.hlog", 22, 1.3); // decode 30% slower, read the same
        Result r = compare(a.toString(), b.toString(), "--out", dir.toString());
        assertThat(r.status()).as(r.err()).isZero();
        String verdict = r.out().lines().filter(l -> l.startsWith("verdict:")).findFirst().orElseThrow();
        assertThat(verdict).contains("decode p50 +", "decode p90 +").doesNotContain("read ");
        assertThat(r.out().lines().filter(l -> l.startsWith("decode") && l.contains(" p50 ")).findFirst()
            .orElseThrow()).contains("UP, beyond noise");
        assertThat(r.out().lines().filter(l -> l.startsWith("read") && l.contains(" p50 ")).findFirst()
            .orElseThrow()).contains("within noise");
    }

    @Test
    void shouldCallAChangeOnlyPastThreeSigmasFivePercentAMicrosecondAndWithFiveIntervals() {
        var p50 = org.spdl4j.examples.report.StageFigures.Metric.P50;
        var rate = org.spdl4j.examples.report.StageFigures.Metric.RATE;
        assertThat(new RunComparison.Row("decode", p50, 1e6, 1.3e6, 1e4, 30).beyondNoise()).isTrue();
        assertThat(new RunComparison.Row("decode", p50, 1e6, 1.3e6, 1.1e5, 30).beyondNoise()).as("within 3 sigmas")
            .isFalse();
        assertThat(new RunComparison.Row("decode", p50, 1e6, 1.04e6, 0, 30).beyondNoise()).as("under 5%").isFalse();
        assertThat(new RunComparison.Row("assign", p50, 903, 957, 0, 30).beyondNoise()).as("54 ns").isFalse();
        assertThat(new RunComparison.Row("decode", rate, 900, 600, 10, 30).beyondNoise()).isTrue();
        assertThat(new RunComparison.Row("decode", rate, 900, 600, 10, 4).beyondNoise()).as("4 intervals").isFalse();
    }

    @Test
    void shouldCompareTwoReportFoldersOfRealRuns() throws Exception {
        Path data = dir.resolve("data");
        SampleImages.generate(data, 24, 5);
        for (String name : List.of("r1", "r2")) {
            Result run = run("run", "--data", data.toString(), "--batch-size", "8", "--no-progress",
                "--interval-ms", "50", "--epochs", "3", "--report", dir.resolve(name).toString());
            assertThat(run.status()).as(run.err()).isZero();
        }
        Result r = compare(dir.resolve("r1").toString(), dir.resolve("r2").toString(), "--out", dir.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("decode", "p99", "verdict:", "compare.html");
        assertThat(HeadlessBrowser.series(Files.readString(dir.resolve("compare.html"))))
            .anySatisfy(s -> assertThat(s.name()).isEqualTo("decode (B)"));
    }

    @Test
    void shouldRefuseAPathThatHoldsNoLogAsABadArgument() {
        Result r = compare(dir.toString(), dir.toString());
        assertThat(r.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(r.err()).contains("A: ", "run.hlog");
    }

    /**
     * Writes a log of 30 one-second intervals of two stages, read (about 20 us) and decode (about 1 ms, times
     * {@code decodeFactor}), 2000 tasks each, log-normal, as {@code spdl4j run} tags them.
     */
    private Path log(String name, long seed, double decodeFactor) throws Exception {
        Path file = dir.resolve(name);
        SplittableRandom random = new SplittableRandom(seed);
        HistogramLogWriter w = new HistogramLogWriter(file.toFile());
        try {
            w.outputLogFormatVersion();
            w.outputStartTime(0);
            w.setBaseTime(0);
            w.outputLegend();
            for (int i = 0; i < 30; i++) {
                for (Map.Entry<String, Double> stage : Map.of("read", 0.02, "decode", decodeFactor).entrySet()
                        .stream().sorted(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder())).toList()) {
                    Histogram h = new Histogram(StageStats.HIGHEST_TRACKABLE_NANOS,
                        StatsConfiguration.SIGNIFICANT_DIGITS);
                    for (int k = 0; k < 2000; k++) {
                        double z = gaussian(random);
                        h.recordValue(Math.round(stage.getValue() * MS * Math.exp(0.3 * z)));
                    }
                    h.setStartTimeStamp(i * 1000L);
                    h.setEndTimeStamp((i + 1) * 1000L);
                    h.setTag("run:" + stage.getKey());
                    w.outputIntervalHistogram(h);
                }
            }
        } finally {
            w.close();
        }
        return file;
    }

    private static double gaussian(SplittableRandom r) {
        double u = 1 - r.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    private static Result compare(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "compare";
        System.arraycopy(args, 0, all, 1, args.length);
        return run(all);
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Spdl4jCommand.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(status, out.toString(), err.toString());
    }
}
