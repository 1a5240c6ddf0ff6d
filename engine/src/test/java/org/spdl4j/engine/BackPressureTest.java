package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BackPressureTest {
    private static final int ITEMS = 3_000;

    /**
     * Items between the source's emit and the consumer's take may sit in: the source's hand (1), each ring (its
     * capacity), each sync worker's hand (its concurrency), each reorder window (its capacity).
     */
    @Test
    void shouldNeverHoldMoreItemsInFlightThanRingsAndWorkersAllow() {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        AtomicInteger emitted = new AtomicInteger();
        int ring1 = 16;
        int ring2 = 8;
        int ring3 = 4;
        int sink = 4;
        int c1 = 3;
        int c2 = 2;
        int window2 = 4;
        int bound = 1 + ring1 + c1 + ring2 + c2 + window2 + ring3 + 1 + sink;

        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> {
                    int i = emitted.getAndIncrement();
                    if (i >= ITEMS) {
                        return null;
                    }
                    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    return i;
                }).named("bounded")
                .pipe("a", (Integer i) -> i, StageOptions.defaults().withConcurrency(c1).withRingCapacity(ring1))
                .pipe("b", (Integer i) -> i, StageOptions.defaults().withConcurrency(c2).withRingCapacity(ring2)
                        .withOrder(OutputOrder.INPUT).withReorderWindow(window2))
                .pipe("c", (Integer i) -> i, StageOptions.defaults().withRingCapacity(ring3))
                .sink(sink)
                .build()) {
            int n = 0;
            for (Integer ignored : p) {
                inFlight.decrementAndGet();
                if (n++ % 100 == 0) {
                    LockSupport.parkNanos(2_000_000); // a slow consumer: every ring fills up
                }
            }
            assertThat(n).isEqualTo(ITEMS);
        }
        assertThat(maxInFlight.get())
                .as("items in flight, bound %d", bound)
                .isLessThanOrEqualTo(bound)
                .isGreaterThanOrEqualTo(ring1 + ring2 + ring3 + sink); // the consumer was slow enough to fill all
    }
}
