package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OutputOrderTest {
    private static final int ITEMS = 100_000;

    /** Random task time: mostly a few µs of spinning, 1% parked for up to 0.5 ms, so completions overtake. */
    private static Integer randomWork(Integer i) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        if (r.nextInt(100) == 0) {
            LockSupport.parkNanos(r.nextLong(50_000, 500_000));
        } else {
            EngineThreads.spin(r.nextLong(0, 3_000));
        }
        return i;
    }

    private static List<Integer> run(OutputOrder order, java.util.function.Function<Integer, Integer> fn) {
        List<Integer> out = new ArrayList<>(ITEMS);
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, ITEMS).boxed().toList())
                .named("order")
                .pipe("work", fn, StageOptions.defaults().withConcurrency(8).withOrder(order).withRingCapacity(64))
                .sink(64)
                .build()) {
            for (Integer i : p) {
                out.add(i);
            }
        }
        return out;
    }

    @Test
    void shouldKeepExactSourceOrderWithInputOrderAndEightWorkers() {
        List<Integer> out = run(OutputOrder.INPUT, OutputOrderTest::randomWork);

        assertThat(out).hasSize(ITEMS);
        for (int i = 0; i < ITEMS; i++) {
            if (out.get(i) != i) {
                throw new AssertionError("position " + i + " holds " + out.get(i));
            }
        }
    }

    @Test
    void shouldDeliverTheSameMultisetWithCompletionOrder() {
        List<Integer> out = run(OutputOrder.COMPLETION, OutputOrderTest::randomWork);

        assertThat(out).hasSize(ITEMS);
        boolean[] seen = new boolean[ITEMS];
        for (Integer i : out) {
            assertThat(seen[i]).as("item %d delivered twice", i).isFalse();
            seen[i] = true;
        }
    }

    @Test
    void shouldSkipDroppedAndFailedItemsWithoutStallingInputOrder() {
        List<Integer> out = run(OutputOrder.INPUT, i -> {
            if (i % 7 == 0) {
                return null; // dropped
            }
            if (i % 11 == 0) {
                throw new IllegalStateException("bad item " + i); // failed (unlimited budget)
            }
            return randomWork(i);
        });

        List<Integer> expected = IntStream.range(0, ITEMS).filter(i -> i % 7 != 0 && i % 11 != 0).boxed().toList();
        assertThat(out).isEqualTo(expected);
    }

    @Test
    void shouldKeepInputOrderWithATinyReorderWindow() {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 20_000).boxed().toList())
                .named("tiny-window")
                .pipe("work", OutputOrderTest::randomWork, StageOptions.defaults().withConcurrency(4)
                        .withOrder(OutputOrder.INPUT).withReorderWindow(2).withRingCapacity(4))
                .build()) {
            p.forEach(out::add);
        }
        assertThat(out).isEqualTo(IntStream.range(0, 20_000).boxed().toList());
    }

    @Test
    void shouldFinishWhenAStageHasMoreWorkersThanInputSlots() {
        // 1,000 items: every hand-off on 1-2 slot rings among 15 threads waits for a time slice on a 2-core machine,
        // and a deadlock (the defect this guards against) shows within the first few runs of slots.
        int items = 1_000;
        for (OutputOrder order : OutputOrder.values()) {
            List<Integer> out = new ArrayList<>();
            try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, items).boxed().toList())
                    .named("narrow")
                    .pipe("wide", (Integer i) -> i, StageOptions.defaults().withConcurrency(8).withOrder(order)
                            .withRingCapacity(2).withReorderWindow(4))
                    .pipe("wider", (Integer i) -> i, StageOptions.defaults().withConcurrency(6).withRingCapacity(1))
                    .sink(1)
                    .build()) {
                p.forEach(out::add);
            }
            assertThat(out).as(order.name())
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(0, items).boxed().toList());
        }
    }
}
