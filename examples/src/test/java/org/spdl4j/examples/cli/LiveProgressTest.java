package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.StageSnapshot;
import org.spdl4j.examples.sample.SampleImages;

/** {@code spdl4j run --live}: the progress line names the stage that limits the run and its p99 task time. */
@Timeout(120)
class LiveProgressTest {
    private static final Pattern LIVE = Pattern.compile("(bottleneck|busiest) (\\w+) \\(\\d+% busy, p99 [0-9.]+(ns|us|ms|s)\\)");

    @TempDir
    static Path data;

    @BeforeAll
    static void sample() throws Exception {
        SampleImages.generate(data, 40, 9);
    }

    @Test
    void shouldShowTheLimitingStageAndItsP99OnTheProgressLine() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Spdl4jCommand.execute(new PrintWriter(out), new PrintWriter(err), "run", "--data",
            data.toString(), "--batch-size", "8", "--decode-threads", "1", "--read-concurrency", "4", "--epochs",
            "4", "--interval-ms", "50", "--live");
        assertThat(status).as(err.toString()).isZero();
        List<String> lines = err.toString().lines().filter(l -> l.contains("img/s")).toList();
        assertThat(lines).as(err.toString()).isNotEmpty();
        Matcher last = LIVE.matcher(lines.getLast());
        assertThat(last.find()).as("the final progress line: " + lines.getLast()).isTrue();
        // one decode thread against four reads: decode (1 ms a task) limits the whole run
        assertThat(last.group(2)).isEqualTo("decode");
    }

    @Test
    void shouldShowNoStageWithoutLive() {
        StringWriter err = new StringWriter();
        int status = Spdl4jCommand.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "run",
            "--data", data.toString(), "--batch-size", "8", "--interval-ms", "50");
        assertThat(status).as(err.toString()).isZero();
        assertThat(err.toString()).contains("img/s").doesNotContain("p99", "bottleneck", "busiest");
    }

    @Test
    void shouldNameTheConsumerTheHeuristicsStageOrElseTheBusiestStage() {
        StageSnapshot read = stage("read", 30, 5_000, false);
        StageSnapshot decode = stage("decode", 97, 2_500_000, true);
        assertThat(LiveBottleneck.describe(snapshot(false, read, decode)))
            .isEqualTo("bottleneck decode (97% busy, p99 2.50ms)");
        StageSnapshot calmDecode = stage("decode", 20, 2_500_000, false);
        assertThat(LiveBottleneck.describe(snapshot(false, read, calmDecode)))
            .isEqualTo("busiest read (30% busy, p99 5.0us)");
        assertThat(LiveBottleneck.describe(snapshot(true, read, calmDecode))).isEqualTo("bottleneck: the consumer");
    }

    private static StageSnapshot stage(String name, double busy, long p99, boolean bottleneck) {
        return new StageSnapshot(name, 1, 100, 100, 0, 100, p99 / 2, p99 / 2, p99, p99, 100, busy, 0, 0, 0, 16,
            bottleneck);
    }

    private static PipelineSnapshot snapshot(boolean consumerBound, StageSnapshot... stages) {
        return new PipelineSnapshot("run", 0, 1_000_000_000L, 1_000_000_000L, 100, List.of(stages), consumerBound);
    }
}
