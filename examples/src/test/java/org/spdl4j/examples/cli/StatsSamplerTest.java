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
            StatsSampler sampler = new StatsSampler(PipelineStats.of(p.stats()), 600_000, null, false);
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
        assertThat(series).as("at least the last point, for the whole (short) run").isNotEmpty();
        assertThat(series.stream().mapToDouble(pt -> pt[1]).max().orElseThrow()).as("images/s").isPositive();
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

    /** A half-second run gets about ten points: the first step is 50 ms, whatever the stats interval. */
    @Test
    void shouldSampleEvery50MsSoAHalfSecondRunHasACurve() {
        long ms = 1_000_000L;
        RunTimeline t = new RunTimeline(0, List.of("decode"));
        for (long now = 50 * ms; now <= 500 * ms; now += 50 * ms) {
            assertThat(t.nextSampleNanos()).isEqualTo(now);
            t.sample(now, now / ms, new double[] {now == 250 * ms ? 75 : 10});
        }
        t.last(501 * ms, 501, new double[] {0}); // 1 ms after the last periodic sample: replaces it
        List<double[]> points = t.throughput();
        assertThat(points).hasSize(10);
        assertThat(points.get(0)[0]).isEqualTo(0.05);
        assertThat(points.get(0)[1]).as("50 images in 50 ms").isCloseTo(1000,
            org.assertj.core.data.Offset.offset(1e-6));
        assertThat(points.get(9)[0]).isEqualTo(0.501);
        assertThat(t.ringOccupancy().get("decode")).hasSize(11).anySatisfy(p -> assertThat(p[1]).isEqualTo(75));
    }

    /**
     * A long run keeps at most {@link RunTimeline#MAX_SAMPLES} samples: past that, every other one goes and the step
     * doubles. A 60 s run ends at a 100 ms step, an hour at 6.4 s; no image is lost to the thinning.
     */
    @Test
    void shouldThinTheSamplesOfALongRunAndKeepTheirCountsExact() {
        long ms = 1_000_000L;
        RunTimeline t = new RunTimeline(0, List.of());
        long now = 0;
        while (now < 60_000 * ms) {
            now = t.nextSampleNanos();
            t.sample(now, now / ms * 2, new double[0]); // 2000 images/s throughout
        }
        assertThat(t.stepNanos()).isEqualTo(100 * ms);
        assertThat(t.size()).isLessThanOrEqualTo(RunTimeline.MAX_SAMPLES);
        assertThat(t.throughput()).hasSizeGreaterThan(RunTimeline.MAX_SAMPLES / 2)
            .allSatisfy(p -> assertThat(p[1]).isCloseTo(2000, org.assertj.core.data.Offset.offset(1e-6)));
        while (now < 3_600_000 * ms) {
            now = t.nextSampleNanos();
            t.sample(now, now / ms * 2, new double[0]);
        }
        assertThat(t.size()).isLessThanOrEqualTo(RunTimeline.MAX_SAMPLES);
        assertThat(t.stepNanos()).isEqualTo(6_400 * ms);
    }
}
