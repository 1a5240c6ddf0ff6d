package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link OutputOrder#INPUT} with random failures, drops and delays in two concurrent stages: every surviving item
 * arrives exactly once, in source order; every failure is counted. One million items by default (trivial functions),
 * ten million under {@code @Tag("long")}.
 */
class InputOrderUnderFaultsTest {

    /** Deterministic per item: the same item fails in every run, so survivors are known in advance. */
    private static boolean failsInFirst(long i) {
        return mix(i, 0x51) % 251 == 0;
    }

    private static boolean droppedInSecond(long i) {
        return mix(i, 0x77) % 503 == 0;
    }

    private static long mix(long i, long salt) {
        long h = (i + salt) * 0x9E3779B97F4A7C15L;
        return (h ^ (h >>> 29)) & Long.MAX_VALUE;
    }

    /** Random delay: usually none, sometimes a short spin, rarely a park so later items overtake. */
    private static void jitter() {
        int r = ThreadLocalRandom.current().nextInt(10_000);
        if (r < 2) {
            LockSupport.parkNanos(200_000);
        } else if (r < 200) {
            EngineThreads.spin(2_000);
        }
    }

    private static void run(long items) throws Exception {
        long[] next = {0};
        try (Pipeline<Long> p = PipelineBuilder.fromSupplier(() -> next[0] < items ? next[0]++ : null)
                .named("input-order")
                .pipe("first", (Long i) -> {
                    jitter();
                    if (failsInFirst(i)) {
                        throw new IllegalStateException("injected");
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(3).withOrder(OutputOrder.INPUT).withRingCapacity(256))
                .pipe("second", (Long i) -> {
                    jitter();
                    return droppedInSecond(i) ? null : i;
                }, StageOptions.defaults().withConcurrency(2).withOrder(OutputOrder.INPUT).withRingCapacity(256))
                .sink(256)
                .build()) {
            BitSet seen = new BitSet();
            long expectedNext = 0;
            long delivered = 0;
            long failures = 0;
            Long item;
            while ((item = p.next(Duration.ofSeconds(30))) != null) {
                long i = item;
                // every survivor between the last delivered item and this one must have been skipped for a reason
                while (expectedNext < i) {
                    assertThat(failsInFirst(expectedNext) || droppedInSecond(expectedNext))
                            .as("item %d lost (next delivered %d)", expectedNext, i).isTrue();
                    expectedNext++;
                }
                assertThat(i).as("item %d out of order or duplicated", i).isEqualTo(expectedNext);
                assertThat(seen.get((int) i)).isFalse();
                seen.set((int) i);
                expectedNext++;
                delivered++;
            }
            for (long i = 0; i < items; i++) {
                failures += failsInFirst(i) ? 1 : 0;
            }
            long dropped = 0;
            for (long i = 0; i < items; i++) {
                dropped += !failsInFirst(i) && droppedInSecond(i) ? 1 : 0;
            }
            assertThat(delivered).isEqualTo(items - failures - dropped);
            assertThat(p.stats().get(1).failures()).isEqualTo(failures);
            assertThat(failures).isPositive();
            assertThat(dropped).isPositive();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldDeliverEverySurvivorOfAMillionItemsOnceInSourceOrder() throws Exception {
        run(1_000_000);
    }

    @Test
    @Tag("long")
    @Timeout(value = 1200, unit = TimeUnit.SECONDS)
    void shouldDeliverEverySurvivorOfTenMillionItemsOnceInSourceOrder() throws Exception {
        run(10_000_000);
    }
}
