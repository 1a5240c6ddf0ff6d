package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Writers on their own WorkerStats while two readers keep swapping intervals: nothing lost, nothing counted twice. */
@Timeout(60)
class PipelineStatsConcurrencyTest {
    private static final int WORKERS = 4;
    @Test
    void shouldKeepExactTotalsWhileAReaderTakesIntervals() throws Exception {
        run(200_000);
    }

    /** The same for longer (opt-in: {@code -Dspdl4j.test.excludedGroups=}). */
    @Test
    @Tag("long")
    @Timeout(600)
    void shouldKeepExactTotalsOverALongRun() throws Exception {
        run(20_000_000);
    }

    private static void run(int tasksPerWorker) throws Exception {
        StageStats map = new StageStats("conc", "map", WORKERS, () -> 0, 1024);
        StageStats sink = new StageStats("conc", "sink", 1, () -> 0, 1024);
        PipelineStats stats = new PipelineStats("conc", List.of(map, sink));
        AtomicLong listened = new AtomicLong();
        stats.addListener((stage, h) -> listened.addAndGet(h.getTotalCount()));

        CountDownLatch start = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger snapshots = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            WorkerStats ws = map.worker(w);
            WorkerStats out = w == 0 ? sink.worker(0) : null;
            writers.add(Thread.ofPlatform().name("writer-" + w).start(() -> {
                awaitQuietly(start);
                for (int i = 0; i < tasksPerWorker; i++) {
                    if (i == tasksPerWorker / 2) {
                        // halfway, make sure the reader really interleaves (fast writers could otherwise finish
                        // before it took a second snapshot)
                        long until = System.nanoTime() + 10_000_000_000L;
                        while (snapshots.get() < 3 && System.nanoTime() < until) {
                            Thread.onSpinWait();
                        }
                    }
                    ws.onItemIn();
                    ws.onTask(100 + (i & 1023));
                    ws.onItemOut();
                    if (out != null) {
                        out.onTask(1);
                    }
                }
            }));
        }
        AtomicBoolean done = new AtomicBoolean();
        List<Long> seenTasks = new ArrayList<>();
        Thread reader = Thread.ofPlatform().name("reader").start(() -> {
            awaitQuietly(start);
            while (!done.get()) {
                PipelineSnapshot s = stats.snapshot();
                seenTasks.add(s.stage("map").tasks());
                snapshots.incrementAndGet();
            }
        });
        Thread sampler = Thread.ofPlatform().name("sampler").start(() -> { // a second reader, as an .hlog writer's close
            awaitQuietly(start);
            while (!done.get()) {
                stats.sample();
            }
        });
        start.countDown();
        for (Thread t : writers) {
            t.join();
        }
        done.set(true);
        reader.join();
        sampler.join();

        PipelineSnapshot last = stats.snapshot();
        long expected = (long) WORKERS * tasksPerWorker;
        assertThat(last.stage("map").tasks()).isEqualTo(expected).isEqualTo(map.tasks());
        assertThat(last.stage("map").itemsIn()).isEqualTo(expected);
        assertThat(last.stage("map").itemsOut()).isEqualTo(expected);
        assertThat(last.stage("sink").tasks()).isEqualTo(tasksPerWorker);
        assertThat(listened).hasValue(expected + tasksPerWorker);
        assertThat(seenTasks).as("the reader took intervals while writers ran").hasSizeGreaterThan(2)
                .isSorted();
        assertThat(last.stage("map").maxNanos()).isBetween(1_100L, 1_140L);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
