package org.spdl4j.engine.ring;

import org.agrona.concurrent.IdleStrategy;

/**
 * The {@code BACKOFF} wait of a producer waiting for room, or of a poller waiting for input, as an Agrona
 * {@link IdleStrategy}: spin, yield while the CPU is contended (bounded), then park with a doubling period; see
 * {@link BackoffPolicy} for when the yield phase ends.
 *
 * <p><b>Threading:</b> one thread only (it keeps the phase of the current wait). <b>Allocation:</b> none.
 * Parking returns on interrupt, and callers check their run flag between calls, so a close ends the wait within one
 * park period.
 */
public final class BackoffIdle implements IdleStrategy {
    private final BackoffPolicy policy;
    private final BackoffClock clock;
    private int spun;
    private int idleYields;
    private long yieldPhaseStart = -1L; // -1: the yield phase has not begun
    private long park;

    /**
     * Creates the idle strategy.
     *
     * @param policy the phases
     */
    public BackoffIdle(BackoffPolicy policy) {
        this(policy, BackoffClock.SYSTEM);
    }

    BackoffIdle(BackoffPolicy policy, BackoffClock clock) {
        this.policy = policy;
        this.clock = clock;
        reset();
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        if (spun < policy.spins()) {
            spun++;
            Thread.onSpinWait();
            return;
        }
        if (idleYields < policy.yields()) {
            long now = clock.nanoTime();
            if (yieldPhaseStart < 0) {
                yieldPhaseStart = now;
            }
            if (now - yieldPhaseStart < policy.yieldPhaseNanos()) {
                if (policy.yieldWasIdle(clock)) {
                    idleYields++;
                }
                return;
            }
            idleYields = policy.yields(); // the phase ran out of time: park from now on
        }
        clock.park(park);
        park = Math.min(park << 1, policy.maxParkNanos());
    }

    @Override
    public void reset() {
        spun = 0;
        idleYields = 0;
        yieldPhaseStart = -1L;
        park = policy.minParkNanos();
    }

    @Override
    public String alias() {
        return "spdl4j-backoff";
    }
}
