package org.spdl4j.engine.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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

    /** Any valid stage name (up to 64 characters) can be profiled, though the pass's pipeline name adds to it. */
    @Test
    void shouldProfileAStageWithTheLongestValidName() {
        String name = "s".repeat(64);
        StageProfile p = StageProfiler.profile(name, ints(20), (Integer x) -> x, false, 1, 2);
        assertThat(p.points()).hasSize(2).allSatisfy(pt -> assertThat(pt.itemsPerSecond()).isPositive());
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

    @Test
    void shouldMeasureTheSteadyStateWithoutEachRunsStartAndEnd() {
        // Each worker thread sets up once (as a decoder's per-thread context does), then each item takes ~1 ms.
        ThreadLocal<Boolean> setUp = ThreadLocal.withInitial(() -> {
            sleepMillis(300);
            return Boolean.TRUE;
        });
        AtomicLong workNanos = new AtomicLong();
        AtomicLong calls = new AtomicLong();
        StageProfile p = StageProfiler.profile("setup", ints(100), (Integer x) -> {
            setUp.get();
            long t = System.nanoTime();
            sleepMillis(1);
            workNanos.addAndGet(System.nanoTime() - t);
            calls.incrementAndGet();
            return x;
        }, false, 1);
        double itemSeconds = workNanos.get() / 1e9 / calls.get();
        // The stage's steady rate is one item per itemSeconds; the set-up (300 ms, 3x the items' own time) is not.
        assertThat(p.points().get(0).itemsPerSecond()).as("items/s; an item takes %.2f ms", itemSeconds * 1e3)
            .isGreaterThan(0.5 / itemSeconds);
    }

    @Test
    void shouldWarmUpSoTheFirstConcurrencyTriedIsNotTheOnlyColdOne() {
        // The first pass over the inputs is 5x slower (a cold JIT, cache or connection pool).
        List<Integer> inputs = ints(200);
        AtomicInteger calls = new AtomicInteger();
        StageProfile p = StageProfiler.profile("cold", inputs, (Integer x) -> {
            sleepMillis(calls.getAndIncrement() < inputs.size() ? 5 : 1);
            return x;
        }, false, 1, 1);
        assertThat(p.points().get(0).itemsPerSecond()).as("the first of two identical points, %s", p.points())
            .isGreaterThan(0.5 * p.points().get(1).itemsPerSecond());
    }

    /**
     * A one-point profile runs its inputs once: a warm-up pass before it would be the same run over again, so it
     * doubled the profile's cost. Counted in calls of the function, not in time.
     */
    @Test
    void shouldRunAOnePointProfileOverItsInputsOnce() {
        AtomicInteger calls = new AtomicInteger();
        StageProfile p = StageProfiler.profile("once", ints(40), (Integer x) -> {
            calls.incrementAndGet();
            return x;
        }, false, 4);
        assertThat(p.points()).hasSize(1);
        assertThat(calls).as("calls of the function: one pass over the 40 inputs").hasValue(40);
        assertThat(StageProfiler.passes(1)).isEqualTo(1);
    }

    /** With several points the warm-up pass stays, one more than the points (so the first point is not cold). */
    @Test
    void shouldWarmUpOnceBeforeSeveralPoints() {
        AtomicInteger calls = new AtomicInteger();
        StageProfiler.profile("twice", ints(40), (Integer x) -> {
            calls.incrementAndGet();
            return x;
        }, false, 1, 2);
        assertThat(calls).as("calls of the function: warm-up and two points over the 40 inputs").hasValue(3 * 40);
        assertThat(StageProfiler.passes(2)).isEqualTo(3);
        assertThat(StageProfiler.passes(0)).isZero();
    }

    /**
     * With as many tasks in flight as inputs (one wave), no steady state exists to window: the point is the inputs
     * over the run's time. 16 tasks of 20 ms cannot pass 800 items/s at any concurrency; the window after the mark
     * used to time only the burst of completions and reported about a million.
     */
    @Test
    void shouldNotReportMoreThanTheStageCanDoWhenAllInputsRunInOneWave() {
        StageProfile p = StageProfiler.profile("sleepy", ints(16), (Integer x) -> {
            sleepMillis(20);
            return x;
        }, true, 1, 4, 16, 64);
        assertThat(p.points()).hasSize(4).allSatisfy(pt -> assertThat(pt.itemsPerSecond())
                .as("items/s at concurrency %d (at most 800 possible)", pt.concurrency()).isLessThan(1_600));
    }

    @Test
    void shouldMeasureASingleInput() {
        StageProfile p = StageProfiler.profile("one", List.of(1), (Integer x) -> x, false, 1, 8);
        assertThat(p.points()).hasSize(2).allSatisfy(pt -> {
            assertThat(pt.itemsPerSecond()).isPositive().isFinite();
            assertThat(pt.failures()).isZero();
        });
        assertThat(p.best()).isPresent();
    }

    @Test
    void shouldStartEachPointsClockWithinItsInputs() {
        assertThat(StageProfiler.startMark(1, 8)).isZero();
        assertThat(StageProfiler.startMark(2, 8)).isEqualTo(1);
        assertThat(StageProfiler.startMark(256, 64)).isEqualTo(64);
        assertThat(StageProfiler.startMark(2_000, 1)).isEqualTo(200);
        assertThat(StageProfiler.startMark(100, 64)).isEqualTo(50);
    }
}
