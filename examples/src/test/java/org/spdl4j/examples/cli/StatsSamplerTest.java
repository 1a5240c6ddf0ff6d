package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.stats.PipelineStats;

/** The progress line and the throughput plot count images, also when a {@code transfer} stage (one item per batch) ends the pipeline. */
@Timeout(60)
class StatsSamplerTest {
    @TempDir
    Path dir;

    @Test
    void shouldCountImagesAtTheDecodeStageNotTheStageBeforeTheSink() throws Exception {
        try (Pipeline<List<Integer>> p = PipelineBuilder.fromIterable(IntStream.range(0, 40).boxed().toList())
                .named("sampler").pipe("decode", x -> x).aggregate(8, false).pipe("transfer", batch -> batch).sink(8)
                .build()) {
            int batches = 0;
            for (int i = 0; i < 5; i++) {
                batches += p.next(Duration.ofSeconds(10)).size() > 0 ? 1 : 0;
            }
            assertThat(batches).isEqualTo(5);
            assertThat(StatsSampler.imagesIn(org.spdl4j.engine.stats.PipelineStats.of(p.stats()).snapshot())).isEqualTo(40);
        }
    }

    /**
     * A run shorter than the sampling interval (never sampled while it ran) still gets a throughput point and one
     * {@code org.spdl4j.StageStats} JFR event per stage: closing the sampler takes a last snapshot.
     */
    @Test
    void shouldTakeALastSnapshotWhenClosedSoARunShorterThanAnIntervalHasAPointAndJfrEvents() throws Exception {
        Path jfr = dir.resolve("sampler.jfr");
        List<double[]> series;
        try (Recording recording = new Recording();
             Pipeline<List<Integer>> p = PipelineBuilder.fromIterable(IntStream.range(0, 40).boxed().toList())
                 .named("short-run").pipe("decode", x -> x).aggregate(8, false).sink(8).build()) {
            recording.enable("org.spdl4j.StageStats");
            recording.start();
            RunMetrics metrics = new RunMetrics();
            metrics.start();
            StatsSampler sampler = new StatsSampler(PipelineStats.of(p.stats()), 600_000, null, metrics);
            sampler.start();
            int batches = 0;
            for (int i = 0; i < 5; i++) {
                batches += p.next(Duration.ofSeconds(10)).size() > 0 ? 1 : 0;
            }
            assertThat(batches).isEqualTo(5);
            sampler.close(); // long before the first 10-minute interval ends
            series = sampler.throughputSeries();
            recording.stop();
            recording.dump(jfr);
        }
        assertThat(series).as("one point, for the whole (short) run").hasSize(1);
        assertThat(series.get(0)[1]).as("images/s").isPositive();
        Map<String, Long> lastItemsIn = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals("org.spdl4j.StageStats")
                    && e.getString("pipeline").equals("short-run")) {
                lastItemsIn.put(e.getString("stage"), e.getLong("itemsIn"));
            }
        }
        assertThat(lastItemsIn).as("an event per stage, counting every item").containsEntry("decode", 40L)
            .containsKeys("source", "sink");
    }

    /** Each sample is a point; a last one that comes right after a periodic one widens that point, not a new one. */
    @Test
    void shouldFoldALastSampleJustAfterAPeriodicOneIntoThatPointRatherThanAddADuplicate() {
        long second = 1_000_000_000L;
        List<double[]> series = new ArrayList<>();
        StatsSampler.Points points = new StatsSampler.Points(second / 2, 0);
        assertThat(points.add(second / 2, 100, false, series, t -> t / 1e9)).isEqualTo(200.0);
        assertThat(points.add(second, 200, false, series, t -> t / 1e9)).isEqualTo(200.0);
        assertThat(points.justSampled(second + 1_000_000)).isTrue();
        assertThat(points.lastImages()).isEqualTo(200);

        points.add(second + 1_000_000, 210, true, series, t -> t / 1e9); // 1 ms later: folded into the last point
        assertThat(series).hasSize(2);
        assertThat(series.get(1)[0]).isEqualTo(1.001);
        assertThat(series.get(1)[1]).as("(210 - 100) images over 0.501 s").isCloseTo(110 / 0.501,
            org.assertj.core.data.Offset.offset(1e-9));

        List<double[]> other = new ArrayList<>();
        StatsSampler.Points later = new StatsSampler.Points(second / 2, 0);
        later.add(second / 2, 100, false, other, t -> t / 1e9);
        assertThat(later.justSampled(second / 2 + second / 10)).isFalse();
        later.add(second / 2 + second / 10, 130, true, other, t -> t / 1e9); // 100 ms later: a point of its own
        assertThat(other).hasSize(2);
        assertThat(other.get(1)[1]).isCloseTo(300, org.assertj.core.data.Offset.offset(1e-9));

        List<double[]> first = new ArrayList<>();
        new StatsSampler.Points(second / 2, 0).add(1_000_000, 5, true, first, t -> t / 1e9);
        assertThat(first).as("a run shorter than a tenth of an interval still has its point").hasSize(1);
    }
}
