package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.stats.StageStats;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StatsTest {

    private static long histogramTotal(StageStats s) {
        Histogram h = new Histogram(StageStats.HIGHEST_TRACKABLE_NANOS, 3);
        s.addIntervalTaskHistogram(h);
        return h.getTotalCount();
    }

    @Test
    void shouldCountItemsAndTasksOfEveryStage() {
        int items = 10_000;
        int consumed = 0;
        List<StageStats> stats;
        try (Pipeline<List<Integer>> p = PipelineBuilder.fromIterable(IntStream.range(0, items).boxed().toList())
                .named("stats")
                .pipe("square", (Integer i) -> i * i, StageOptions.defaults().withConcurrency(4))
                .pipe("odd", (Integer i) -> i % 2 == 1 ? i : null, StageOptions.defaults().withConcurrency(2)
                        .withOrder(OutputOrder.INPUT))
                .pipe("fail", (Integer i) -> {
                    if (i % 9 == 0) {
                        throw new IllegalArgumentException("nine");
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(3))
                .aggregate(10, false)
                .build()) {
            for (List<Integer> batch : p) {
                consumed += batch.size();
            }
            stats = p.stats();
        }
        assertThat(stats).extracting(StageStats::stage)
                .containsExactly("source", "square", "odd", "fail", "aggregate-3", "sink");
        StageStats source = stats.get(0);
        StageStats square = stats.get(1);
        StageStats odd = stats.get(2);
        StageStats fail = stats.get(3);
        StageStats agg = stats.get(4);
        StageStats sink = stats.get(5);
        long odds = items / 2;
        long failed = IntStream.range(0, items).filter(i -> i % 2 == 1 && ((long) i * i) % 9 == 0).count();

        assertThat(source.itemsOut()).isEqualTo(items);
        assertThat(square.itemsIn()).isEqualTo(items);
        assertThat(square.itemsOut()).isEqualTo(items);
        assertThat(square.workerCount()).isEqualTo(4);
        assertThat(odd.itemsIn()).isEqualTo(items);
        assertThat(odd.itemsOut()).isEqualTo(odds);
        assertThat(fail.itemsIn()).isEqualTo(odds);
        assertThat(fail.failures()).isEqualTo(failed);
        assertThat(fail.itemsOut()).isEqualTo(odds - failed);
        assertThat(agg.itemsIn()).isEqualTo(odds - failed);
        assertThat(consumed).isEqualTo((int) (odds - failed));
        assertThat(sink.itemsIn()).isEqualTo(agg.itemsOut()).isEqualTo((odds - failed + 9) / 10);

        assertThat(histogramTotal(square)).isEqualTo(square.itemsIn());
        assertThat(histogramTotal(odd)).isEqualTo(odd.itemsIn());
        assertThat(histogramTotal(fail)).isEqualTo(fail.itemsIn());
        assertThat(histogramTotal(agg)).isEqualTo(agg.itemsIn());
        assertThat(square.busyNanos()).isPositive();
        assertThat(square.inputCapacity()).isEqualTo(EngineConfiguration.DEFAULT_RING_CAPACITY);
        assertThat(square.inputOccupancy()).isZero(); // drained
    }

    @Test
    void shouldReportOccupancyOfFullRingsAndTheSourceBackPressure() throws Exception {
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> 1).named("occupancy")
                .pipe("id", (Integer i) -> i, StageOptions.defaults().withRingCapacity(32))
                .sink(16)
                .build().start()) {
            StageStats id = p.stats().get(1);
            StageStats sink = p.stats().get(2);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sink.inputOccupancy() < 16 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(sink.inputOccupancy()).isEqualTo(16); // nobody reads: the sink ring is full
            while (id.inputOccupancy() < 32 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(id.inputOccupancy()).isEqualTo(32);
            for (int i = 0; i < 200; i++) {
                assertThat(p.next(java.time.Duration.ofSeconds(5))).isEqualTo(1);
            }
            // the source waited on a full ring and recorded it once room came back
            assertThat(p.stats().get(0).backPressuredNanos()).isPositive();
        }
    }

    @Test
    void shouldCountTheResultsAReorderWindowPublishedBeforeAStop() throws Exception {
        // One worker holds item 0 at a gate while the other stores item 1 in the window (a two-slot input ring:
        // one item per claim). Opening the gate lets the holder drain 0 into the one-slot sink ring, which nobody
        // reads, and wait for room for 1. Close stops that drain: the result it published still counts.
        CountDownLatch gate = new CountDownLatch(1);
        StageStats work;
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 1_000).boxed().toList())
                .named("window-stop")
                .pipe("work", holdingZeroAt(gate), StageOptions.defaults().withConcurrency(2).withOrder(OutputOrder.INPUT).withReorderWindow(8)
                        .withRingCapacity(2))
                .sink(1)
                .build().start()) {
            work = p.stats().get(1);
            StageStats sink = p.stats().get(2);
            while (work.itemsIn() < 3) { // item 2 taken: item 1 is in the window
                Thread.sleep(1);
            }
            gate.countDown();
            while (sink.inputOccupancy() < 1) { // 0 published: the drain now waits for room for 1
                Thread.sleep(1);
            }
        }
        assertThat(work.itemsOut()).isEqualTo(1);
    }

    /**
     * A reorder window's drainer publishes the ready results one by one into a full ring: each must count as output
     * (and its wait as back-pressure) as it goes out, not when the whole drain ends. In front of a slow consumer a
     * drain goes on for as long as the window refills, so the stage showed almost no items out and no
     * back-pressure while the consumer took its output, and the verdict missed the consumer.
     */
    @Test
    void shouldCountWhatAReorderWindowDrainPublishesAsItGoesOut() throws Exception {
        // Item 0 is held at a gate while the other worker stores 1, 2, 3 (and 4) in the window: a four-slot input
        // ring, one item per claim. Opened, the gate lets 0's worker drain 0, 1 into the two-slot sink ring, which
        // the consumer reads one item at a time; 3 is ready and waits for room, so the drain cannot have ended.
        CountDownLatch gate = new CountDownLatch(1);
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 1_000).boxed().toList())
                .named("window-count")
                .pipe("work", holdingZeroAt(gate), StageOptions.defaults().withConcurrency(2).withOrder(OutputOrder.INPUT).withReorderWindow(8)
                        .withRingCapacity(4))
                .sink(2)
                .build().start()) {
            StageStats work = p.stats().get(1);
            StageStats sink = p.stats().get(2);
            while (work.itemsIn() < 5) { // item 4 taken: 1, 2 and 3 are in the window
                Thread.sleep(1);
            }
            gate.countDown();
            while (sink.inputOccupancy() < 2) { // 0 and 1 published: the drain waits for room for 2
                Thread.sleep(1);
            }
            java.util.Iterator<Integer> items = p.iterator();
            assertThat(items.next()).isZero(); // room for 2: published; 3 now waits
            assertThat(Polling.awaitAtLeast(work::itemsOut, 3)).as("items out while the drain waits to publish 3")
                    .isGreaterThanOrEqualTo(3);
            Thread.sleep(20); // 3 waits for room at least this long
            assertThat(items.next()).isEqualTo(1); // room for 3
            assertThat(Polling.awaitAtLeast(work::itemsOut, 4)).isGreaterThanOrEqualTo(4);
            assertThat(Polling.awaitAtLeast(work::backPressuredNanos, TimeUnit.MILLISECONDS.toNanos(20)))
                    .as("the drain's wait for room for 3, as soon as 3 went out")
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }
    /** The identity, but item 0 waits at {@code gate} first (dropped if interrupted there). */
    private static java.util.function.Function<Integer, Integer> holdingZeroAt(CountDownLatch gate) {
        return i -> {
            if (i == 0) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
            return i;
        };
    }
}
