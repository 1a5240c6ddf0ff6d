package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.spdl4j.engine.Polling;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;

/**
 * An INPUT-order stage in front of a slow consumer: one worker drains the reorder window into the full output ring,
 * the others wait with a finished result for room in the window. Both are held back by the consumer: each worker's
 * wait is back-pressure, so the stage before the sink shows it and the verdict names the consumer.
 */
@Timeout(60)
class ReorderWindowWaitStatsTest {
    private static final long HELD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    @Test
    void shouldCountAWorkerWaitingForRoomBehindABlockedDrainAsBackPressured() throws Exception {
        // Two workers, a two-entry window, a one-slot sink ring nobody reads yet: 0 goes out, the drainer then waits
        // for room for 1; the other worker stores 2 and waits with 3 for room in the window (3 is a window ahead of
        // the head, 1, whose result is stored and held by the full output).
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 100).boxed().toList())
                .named("window-wait")
                .pipe("work", (Integer i) -> i, StageOptions.defaults().withConcurrency(2)
                        .withOrder(OutputOrder.INPUT).withReorderWindow(2).withRingCapacity(4))
                .sink(1)
                .build().start()) {
            StageStats work = p.stats().get(1);
            Thread waiter = awaitThread(t -> isWaitingForWindowRoom(t.getStackTrace()));
            Thread.sleep(2 * TimeUnit.NANOSECONDS.toMillis(HELD_NANOS)); // both workers held back (margin: 2x)
            assertThat(waiter.getName()).startsWith("spdl4j-window-wait-work-");
            int n = 0;
            for (Integer ignored : p) {
                n++;
            }
            assertThat(n).isEqualTo(100);
            for (int w = 0; w < 2; w++) {
                WorkerStats worker = work.worker(w);
                assertThat(Polling.awaitAtLeast(() -> worker.read(WorkerStats.BACK_PRESSURED_NS), HELD_NANOS))
                        .as("worker %d's back-pressure (the one waiting for room in the window: %s)", w,
                                waiter.getName())
                        .isGreaterThanOrEqualTo(HELD_NANOS);
            }
        }
    }

    /** In {@code ReorderWindow.put}'s wait for room: not draining, not publishing. */
    private static boolean isWaitingForWindowRoom(StackTraceElement[] stack) {
        boolean inWindow = Arrays.stream(stack).anyMatch(f -> f.getClassName().endsWith(".ReorderWindow"));
        boolean draining = Arrays.stream(stack).anyMatch(f -> f.getClassName().endsWith(".ReorderWindow")
                && f.getMethodName().equals("drain"));
        return inWindow && !draining;
    }

    private static Thread awaitThread(java.util.function.Predicate<Thread> which) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            Optional<Thread> t = Thread.getAllStackTraces().keySet().stream()
                    .filter(x -> x.getName().startsWith("spdl4j-window-wait-work-")).filter(which).findFirst();
            if (t.isPresent() && stillWaiting(t.get(), which)) {
                return t.get();
            }
            Thread.sleep(1);
        }
        throw new AssertionError("no worker waited for room in the reorder window within 20 s");
    }

    /** Whether {@code t} is still in that state over 20 ms (not caught in passing, on its way to a drain). */
    private static boolean stillWaiting(Thread t, java.util.function.Predicate<Thread> which)
            throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            Thread.sleep(5);
            if (!which.test(t)) {
                return false;
            }
        }
        return true;
    }

}
