package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;

/** The stats package over the real engine: what the runtime records is what the snapshot and the .hlog show. */
@Timeout(60)
class EnginePipelineStatsTest {
    private static final int ITEMS = 10_000;

    @TempDir
    Path dir;

    @Test
    void shouldCountEveryItemAndTaskOfARealPipeline() throws Exception {
        List<Integer> items = IntStream.range(0, ITEMS).boxed().toList();
        StageOptions unlimited = StageOptions.defaults().withFailureBudget(FailureBudget.UNLIMITED);
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(items).named("count")
                .pipe("double", (Integer x) -> x * 2, unlimited.withConcurrency(2))
                .pipe("drop-tenth", (Integer x) -> x % 20 == 0 ? null : x, unlimited)
                .pipe("fail-hundredth", (Integer x) -> {
                    if (x % 200 == 2) {
                        throw new IllegalArgumentException("failing on purpose: " + x);
                    }
                    return x;
                }, unlimited)
                .sink(64)
                .build()) {
            PipelineStats stats = PipelineStats.of(p.stats());
            Path hlog = dir.resolve("count.hlog");
            StageHistogramLogWriter writer = StageHistogramLogWriter.open(stats, hlog);
            int consumed = 0;
            for (Integer ignored : p) {
                consumed++;
                if (consumed % 1_000 == 0) {
                    stats.snapshot(); // intervals while items flow
                }
            }
            PipelineSnapshot s = stats.snapshot();
            writer.close();

            assertThat(s.pipeline()).isEqualTo("count");
            assertThat(s.stages()).extracting(StageSnapshot::stage)
                    .containsExactly("source", "double", "drop-tenth", "fail-hundredth", "sink");
            assertThat(s.stage("source").itemsOut()).isEqualTo(ITEMS);
            assertThat(s.stage("double").itemsIn()).isEqualTo(ITEMS);
            assertThat(s.stage("double").itemsOut()).isEqualTo(ITEMS);
            assertThat(s.stage("double").tasks()).isEqualTo(ITEMS);
            assertThat(s.stage("drop-tenth").itemsOut()).isEqualTo(ITEMS - ITEMS / 10);
            assertThat(s.stage("fail-hundredth").itemsIn()).isEqualTo(ITEMS - ITEMS / 10);
            assertThat(s.stage("fail-hundredth").failures()).isEqualTo(ITEMS / 100);
            assertThat(s.stage("fail-hundredth").tasks()).isEqualTo(ITEMS - ITEMS / 10);
            assertThat(s.stage("sink").itemsOut()).isEqualTo(consumed).isEqualTo(ITEMS - ITEMS / 10 - ITEMS / 100);
            assertThat(s.stage("double").p50Nanos()).isPositive();

            Map<String, Long> totals = new HashMap<>();
            try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
                EncodableHistogram h;
                while ((h = reader.nextIntervalHistogram()) != null) {
                    totals.merge(h.getTag(), ((org.HdrHistogram.Histogram) h).getTotalCount(), Long::sum);
                }
            }
            for (StageSnapshot stage : s.stages()) {
                assertThat(totals.get("count:" + stage.stage())).as(stage.stage()).isEqualTo(stage.tasks());
            }
        }
    }

    @Test
    void shouldMarkTheSlowStageAsTheBottleneck() throws Exception {
        try (Pipeline<Long> p = PipelineBuilder.fromSupplier(() -> 1L).named("slow")
                .pipe("sleepy", (Long x) -> {
                    sleepMillis(2);
                    return x;
                })
                .pipe("quick", (Long x) -> x + 1)
                .sink(16)
                .build()) {
            PipelineStats stats = PipelineStats.of(p.stats());
            drain(p, Duration.ofMillis(100)); // threads started and flowing
            stats.snapshot(); // the next snapshot's rates and shares cover the steady state only
            drain(p, Duration.ofMillis(400));
            PipelineSnapshot s = stats.snapshot();
            String table = StatsTable.render(s);
            assertThat(s.bottleneck().map(StageSnapshot::stage)).as(table).contains("sleepy");
            assertThat(s.stage("sleepy").busyPercent()).as(table).isGreaterThan(80);
            assertThat(s.stage("quick").starvedPercent()).as(table).isGreaterThan(50);
            assertThat(table).contains("bottleneck: sleepy");
        }
    }

    @Test
    void shouldBlameTheConsumerWhenItIsTheSlowest() throws Exception {
        try (Pipeline<Long> p = PipelineBuilder.fromSupplier(() -> 1L).named("fast")
                .pipe("quick", (Long x) -> x + 1, StageOptions.defaults().withRingCapacity(8))
                .sink(4)
                .build()) {
            PipelineStats stats = PipelineStats.of(p.stats());
            drain(p, Duration.ofMillis(50)); // threads started
            stats.snapshot();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(400);
            for (Long ignored : p) {
                sleepMillis(2); // the training step
                if (System.nanoTime() > deadline) {
                    break;
                }
            }
            PipelineSnapshot s = stats.snapshot();
            assertThat(s.consumerBound()).as(StatsTable.render(s)).isTrue();
            assertThat(s.bottleneck()).isEmpty();
            assertThat(StatsTable.verdict(s)).startsWith("bottleneck: the consumer");
        }
    }

    /**
     * Cheap stages publish their results in runs (PublishBatching.SHORT_TASKS): in front of a slow consumer a run
     * goes out one slot at a time. Each item counts as out when it is published, not when its whole run is, so no
     * stage shows fewer items out than the next one has already taken in.
     */
    @Test
    void shouldCountAnItemOutWhenItIsPublishedNotWhenItsRunEnds() throws Exception {
        try (Pipeline<Long> p = PipelineBuilder.fromSupplier(() -> 1L).named("runs")
                .pipe("fetch", (Long x) -> x, StageOptions.defaults().withConcurrency(4))
                .sink(4)
                .build()) {
            Iterator<Long> items = p.iterator();
            for (int i = 0; i < 300; i++) {
                assertThat(items.hasNext()).isTrue();
                items.next();
                sleepMillis(2); // the training step
            }
            List<StageStats> stages = p.stats(); // read downstream first: what it took was published before
            long sinkIn = stages.get(2).itemsIn();
            long fetchIn = stages.get(1).itemsIn();
            long fetchOut = stages.get(1).itemsOut() + stages.get(1).failures();
            long sourceOut = stages.get(0).itemsOut();
            // An item is counted out just after it is published: allow the one a worker may be between the two.
            assertThat(fetchOut).as("fetch out vs sink in").isGreaterThanOrEqualTo(sinkIn - 4);
            assertThat(sourceOut).as("source out vs fetch in").isGreaterThanOrEqualTo(fetchIn - 1);
        }
    }

    private static void drain(Pipeline<Long> p, Duration d) {
        long deadline = System.nanoTime() + d.toNanos();
        for (Long ignored : p) {
            if (System.nanoTime() > deadline) {
                return;
            }
        }
    }

    private static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
