package org.spdl4j.engine.ring;

import org.agrona.concurrent.IdleStrategy;

/**
 * The {@code BACKOFF} wait of a producer waiting for room, or of a poller waiting for input, as an Agrona
 * {@link IdleStrategy}: spin (for an {@link AdaptiveSpin adaptive} number of iterations), yield while the CPU is
 * contended (bounded), then park with a doubling period; see {@link BackoffPolicy} for when the yield phase ends.
 * Callers {@link #reset()} at the start of each wait, which is also when the previous wait's outcome adjusts the
 * spin phase.
 *
 * <p><b>Threading:</b> one thread only (it keeps the phase of the current wait). <b>Allocation:</b> none.
 * Parking returns on interrupt, and callers check their run flag between calls, so a close ends the wait within one
 * park period.
 */
public final class BackoffIdle implements IdleStrategy {
    private final BackoffPolicy policy;
    private final BackoffClock clock;
    private final AdaptiveSpin spin;
    private int spun;
    private int yields;
    private int idleYields;
    private boolean firstYieldContended;
    private boolean parked;
    private long yieldPhaseStart;
    private long now; // the clock when the last yield returned: the next yield's start
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
        this.spin = new AdaptiveSpin(policy.spins());
        restart();
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
        if (spun < spin.limit() && yields == 0) {
            spun++;
            clock.spinOnce();
            return;
        }
        if (idleYields < policy.yields()) {
            if (yields == 0) {
                now = clock.nanoTime();
                yieldPhaseStart = now;
            }
            if (now - yieldPhaseStart < policy.yieldPhaseNanos()) {
                long start = now;
                clock.yieldOnce();
                now = clock.nanoTime();
                boolean contended = policy.isContended(now - start);
                if (yields++ == 0) {
                    firstYieldContended = contended;
                }
                if (!contended) {
                    idleYields++;
                }
                return;
            }
            idleYields = policy.yields(); // the phase ran out of time: park from now on
        }
        parked = true;
        clock.park(park);
        park = Math.min(park << 1, policy.maxParkNanos());
    }

    @Override
    public void reset() {
        if (spun > 0 || yields > 0 || parked) { // the previous wait idled at least once: learn from it
            spin.waitEnded(yields, firstYieldContended, parked);
        }
        restart();
    }

    private void restart() {
        spun = 0;
        yields = 0;
        idleYields = 0;
        firstYieldContended = false;
        parked = false;
        park = policy.minParkNanos();
    }

    /** {@return how many spins the next wait makes before yielding (adapted to how earlier waits ended)} */
    int spinLimit() {
        return spin.limit();
    }

    @Override
    public String alias() {
        return "spdl4j-backoff";
    }
}
