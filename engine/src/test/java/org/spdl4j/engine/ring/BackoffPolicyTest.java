package org.spdl4j.engine.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffPolicyTest {
    private static final BackoffPolicy POLICY = new BackoffPolicy(2, 3, 5_000, 100_000, 1_000, 8_000);

    /**
     * A clock whose yields take a set time and which records what the wait did: "yield" or "park:<nanos>"; spins
     * are counted apart.
     */
    private static final class ScriptedClock implements BackoffClock {
        final List<String> actions = new ArrayList<>();
        long now = 1_000_000;
        long yieldTakes;
        Runnable afterAction = () -> { };
        int spins;

        ScriptedClock(long yieldTakes) {
            this.yieldTakes = yieldTakes;
        }

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void spinOnce() {
            spins++;
        }

        @Override
        public void yieldOnce() {
            now += yieldTakes;
            actions.add("yield");
            afterAction.run();
        }

        @Override
        public void park(long nanos) {
            now += nanos;
            actions.add("park:" + nanos);
            afterAction.run();
        }
    }

    private static void idleTimes(BackoffIdle idle, int times) {
        for (int i = 0; i < times; i++) {
            idle.idle();
        }
    }

    @Test
    void shouldParkAfterTheIdleYieldsWithADoublingPeriod() {
        ScriptedClock clock = new ScriptedClock(1_000); // nobody else runs: each yield returns within 1 µs
        idleTimes(new BackoffIdle(POLICY, clock), 2 + 3 + 5);
        assertThat(clock.spins).isEqualTo(2);
        assertThat(clock.actions).containsExactly("yield", "yield", "yield",
                "park:1000", "park:2000", "park:4000", "park:8000", "park:8000");
    }

    @Test
    void shouldKeepYieldingWhileTheCpuIsContendedUntilTheYieldPhaseEnds() {
        ScriptedClock clock = new ScriptedClock(10_000); // another thread ran during each yield
        idleTimes(new BackoffIdle(POLICY, clock), 2 + 10 + 2);
        // yields start at 0, 10, ..., 90 µs into the phase; at 100 µs the phase is over
        assertThat(clock.actions.subList(0, 10)).containsOnly("yield");
        assertThat(clock.actions.subList(10, 12)).containsExactly("park:1000", "park:2000");
    }

    @Test
    void shouldCountEveryYieldWhenContentionIsNotConsidered() {
        ScriptedClock clock = new ScriptedClock(10_000);
        idleTimes(new BackoffIdle(new BackoffPolicy(0, 3, 0, 100_000, 1_000, 8_000), clock), 4);
        assertThat(clock.actions).containsExactly("yield", "yield", "yield", "park:1000");
    }

    @Test
    void shouldStartOverAfterReset() {
        ScriptedClock clock = new ScriptedClock(1_000);
        BackoffIdle idle = new BackoffIdle(POLICY, clock);
        idleTimes(idle, 7);
        idle.idle(1); // work was done: the next wait starts with spinning again
        clock.actions.clear();
        idleTimes(idle, 6);
        assertThat(clock.actions).containsExactly("yield", "yield", "yield", "park:1000");
    }

    @Test
    void consumerWaitShouldFollowTheSamePhasesAndReturnWhatWasPublished() throws Exception {
        ScriptedClock clock = new ScriptedClock(10_000);
        Sequence cursor = new Sequence(4);
        clock.afterAction = () -> {
            if (clock.actions.size() == 12) {
                cursor.set(9); // the producer publishes 5..9 during the second park
            }
        };
        BackoffWaitStrategy wait = new BackoffWaitStrategy(POLICY, clock);
        long available = wait.waitFor(5, cursor, cursor, new Barrier(false));
        assertThat(available).isEqualTo(9);
        assertThat(clock.spins).isEqualTo(2);
        assertThat(wait.spinLimit()).as("the first yield was contended: spin half as long next time").isEqualTo(1);
        assertThat(clock.actions).hasSize(12);
        assertThat(clock.actions.subList(0, 10)).containsOnly("yield");
        assertThat(clock.actions.subList(10, 12)).containsExactly("park:1000", "park:2000");
    }

    @Test
    void consumerWaitShouldStopWhenAlerted() {
        ScriptedClock clock = new ScriptedClock(1_000);
        Sequence cursor = new Sequence(4);
        assertThatThrownBy(() -> new BackoffWaitStrategy(POLICY, clock).waitFor(5, cursor, cursor, new Barrier(true)))
                .isInstanceOf(AlertException.class);
        assertThat(clock.actions).isEmpty();
    }

    @Test
    void shouldStopSpinningWhileYieldsFindTheCpuContendedAndSpinAgainOnceTheyDoNot() {
        ScriptedClock clock = new ScriptedClock(10_000);
        BackoffIdle idle = new BackoffIdle(new BackoffPolicy(8, 3, 5_000, 100_000, 1_000, 8_000), clock);
        int[] limits = new int[5];
        for (int w = 0; w < limits.length; w++) {
            idle.reset(); // a new wait: learns from the previous one
            limits[w] = idle.spinLimit();
            idleTimes(idle, limits[w] + 1); // spins, then one contended yield, then the item comes
        }
        assertThat(limits).containsExactly(8, 4, 2, 1, 0);

        clock.yieldTakes = 1_000; // the other thread went away: a yield now returns at once
        for (int w = 0; w < 3; w++) {
            idle.reset();
            idleTimes(idle, idle.spinLimit() + 1); // the item came right after one idle yield
        }
        idle.reset();
        assertThat(idle.spinLimit()).isEqualTo(7); // 0 -> 1 -> 3 -> 7
        idleTimes(idle, 3); // this wait's item comes while it spins
        idle.reset();
        assertThat(idle.spinLimit()).isEqualTo(8); // capped at the policy's spins
    }

    @Test
    void consumerWaitShouldNotChangeItsSpinsWhenTheItemWasThere() throws Exception {
        ScriptedClock clock = new ScriptedClock(10_000);
        Sequence cursor = new Sequence(9);
        BackoffWaitStrategy wait = new BackoffWaitStrategy(POLICY, clock);
        assertThat(wait.waitFor(5, cursor, cursor, new Barrier(false))).isEqualTo(9);
        assertThat(clock.actions).isEmpty();
        assertThat(clock.spins).isZero();
        assertThat(wait.spinLimit()).isEqualTo(2);
    }

    @Test
    void shouldRejectInconsistentPhases() {
        assertThatThrownBy(() -> new BackoffPolicy(-1, 3, 0, 0, 1, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1 spins");
        assertThatThrownBy(() -> new BackoffPolicy(1, 3, 0, 0, 10, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 <= min <= max");
    }

    /** The alert part of a barrier; the rest is not used by a wait strategy. */
    private record Barrier(boolean alerted) implements SequenceBarrier {
        @Override
        public long waitFor(long sequence) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long getCursor() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isAlerted() {
            return alerted;
        }

        @Override
        public void alert() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void clearAlert() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void checkAlert() throws AlertException {
            if (alerted) {
                throw AlertException.INSTANCE;
            }
        }
    }
}
