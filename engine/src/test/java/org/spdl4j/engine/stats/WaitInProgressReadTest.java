package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reader of starved and back-pressured time racing a worker's waits as they start and end. The worker's waits
 * follow each other without a gap on a clock of the test's own (advanced by the worker only), so at every instant
 * the two totals together are exactly the time elapsed on it: a reading below the clock before the read missed a wait
 * (or its part in progress), above the clock after it counted a wait twice.
 */
@Timeout(10)
class WaitInProgressReadTest {
    private static final long T0 = 1_000L;
    private static final long WAIT = 7L; // ticks per wait on the test's clock
    private static final int WAITS = 600_000;

    @Test
    void shouldReadEveryWaitOnceAndNeverGoBackWhileWaitsStartAndEnd() throws Exception {
        WorkerStats stats = new WorkerStats(StageStats.HIGHEST_TRACKABLE_NANOS, 2);
        AtomicLong clock = new AtomicLong(T0); // written by the worker only
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread worker = Thread.ofPlatform().name("waiting-worker").start(() -> {
            try {
                started.countDown();
                long t = T0;
                for (int i = 0; i < WAITS; i++) {
                    stats.waitStarted((i & 1) == 0 ? WaitKind.STARVED : WaitKind.BACK_PRESSURED, t, 1);
                    t += WAIT;
                    clock.set(t); // the wait goes on until t at least: readers may count it up to t from now on
                    stats.waitEnded(t);
                }
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        started.await();
        long lastStarved = 0;
        long lastBackPressured = 0;
        long reads = 0;
        String violation = null;
        // Plain comparisons in the loop (an assertion per read would make the reader too slow to race the worker).
        while (violation == null && (worker.isAlive() || reads == 0)) {
            long before = clock.get();
            long starved = stats.starvedNanos(before);
            long backPressured = stats.backPressuredNanos(before);
            long after = clock.get();
            if (starved < lastStarved || backPressured < lastBackPressured) {
                violation = "a total went back at read " + reads + ": starved " + lastStarved + " -> " + starved
                        + ", back-pressured " + lastBackPressured + " -> " + backPressured;
            } else if (starved + backPressured < before - T0) {
                violation = "a wait missed at read " + reads + ": " + (starved + backPressured) + " < "
                        + (before - T0) + " elapsed before the read";
            } else if (starved + backPressured > after - T0) {
                violation = "a wait counted twice at read " + reads + ": " + (starved + backPressured) + " > "
                        + (after - T0) + " elapsed after the read";
            }
            lastStarved = starved;
            lastBackPressured = backPressured;
            reads++;
        }
        assertThat(violation).isNull();
        worker.join();
        assertThat(failed.get()).isNull();
        long end = T0 + WAITS * WAIT;
        assertThat(stats.starvedNanos(end) + stats.backPressuredNanos(end)).isEqualTo(WAITS * WAIT);
        assertThat(stats.starvedNanos(end)).isEqualTo(WAITS / 2 * WAIT);
        assertThat(reads).isPositive();
    }

    @Test
    void shouldCountAWaitInProgressUpToTheReadersClockForItsSlots() {
        WorkerStats stats = new WorkerStats(StageStats.HIGHEST_TRACKABLE_NANOS, 2);
        stats.onBackPressured(5);
        stats.waitStarted(WaitKind.BACK_PRESSURED, 100, 3);
        assertThat(stats.backPressuredNanos(90)).as("a reading before the wait began").isEqualTo(5);
        assertThat(stats.backPressuredNanos(110)).isEqualTo(5 + 3 * 10);
        assertThat(stats.starvedNanos(110)).isZero();
        stats.waitStarted(WaitKind.STARVED, 120, 1); // ends the open wait at 120 first
        assertThat(stats.backPressuredNanos(200)).isEqualTo(5 + 3 * 20);
        stats.waitEnded(150);
        stats.waitEnded(170); // none in progress: nothing happens
        assertThat(stats.starvedNanos(1_000)).isEqualTo(30);
        assertThat(stats.backPressuredNanos(1_000)).isEqualTo(65);
    }
}
