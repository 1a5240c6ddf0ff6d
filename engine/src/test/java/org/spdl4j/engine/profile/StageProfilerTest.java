package org.spdl4j.engine.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class StageProfilerTest {
    private static List<Integer> ints(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldNotCountFailedItemsAsThroughput() {
        StageProfile p = StageProfiler.profile("fails", ints(50), (Integer x) -> {
            throw new IllegalStateException("429 Too Many Requests, on purpose");
        }, false, 1, 2);
        assertThat(p.points()).hasSize(2).allSatisfy(pt -> {
            assertThat(pt.itemsPerSecond()).as("items/s at %d", pt.concurrency()).isZero();
            assertThat(pt.failures()).isEqualTo(50);
        });
        assertThat(p.best()).as("no concurrency put an item through").isEmpty();
    }

    @Test
    void shouldNotRecommendAConcurrencyAtWhichEveryItemFailed() {
        // A throttled service: at concurrency 4 every call fails at once; at 1 every item comes through.
        StageProfile p = StageProfiler.profile("flaky", ints(40), (Integer x) -> {
            if (Thread.currentThread().getName().startsWith("spdl4j-profile-flaky-4-")) {
                throw new IllegalStateException("429 Too Many Requests, on purpose");
            }
            sleepMillis(1);
            return x;
        }, false, 1, 4);
        assertThat(p.points().get(0).failures()).isZero();
        assertThat(p.points().get(0).itemsPerSecond()).isPositive();
        assertThat(p.points().get(1).failures()).isEqualTo(40);
        assertThat(p.points().get(1).itemsPerSecond()).isZero();
        assertThat(p.best()).map(StageProfile.Point::concurrency).contains(1);
    }
}
