package org.spdl4j.engine.ring;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;

/**
 * The {@code BACKOFF} wait of a consumer: spin (for an {@link AdaptiveSpin adaptive} number of iterations, shared by
 * the ring's consumers), yield while the CPU is contended (bounded), then park with a period doubling up to the
 * policy's longest; see {@link BackoffPolicy} for when the yield phase ends. Fast hand-off when
 * items flow, no lost step when the machine runs more stage threads than it has cores, and next to no CPU when a
 * stage idles (the default of spdl4j, since a small machine runs many idle stages).
 *
 * <p>The phase of a wait lives on the waiting thread's stack, so one instance serves every consumer of a ring; only
 * the spin phase's length is shared, as a hint. Alertable: every iteration checks the barrier's alert, and parking
 * returns on interrupt, so {@code close()} ends the wait within one park period. Producers publish without
 * signalling (no lock).
 */
public final class BackoffWaitStrategy implements WaitStrategy {
    private final BackoffPolicy policy;
    private final BackoffClock clock;
    private final AdaptiveSpin spin; // shared by the ring's consumers: a hint, see AdaptiveSpin

    /**
     * Creates the strategy.
     *
     * @param policy the phases
     */
    public BackoffWaitStrategy(BackoffPolicy policy) {
        this(policy, BackoffClock.SYSTEM);
    }

    BackoffWaitStrategy(BackoffPolicy policy, BackoffClock clock) {
        this.policy = policy;
        this.clock = clock;
        this.spin = new AdaptiveSpin(policy.spins());
    }

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException {
        long available = dependentSequence.get(); // acquire load of the producer's cursor (or the stage before)
        if (available >= sequence) {
            return available;
        }
        int spins = spin.limit();
        int spun = 0;
        int yields = 0;
        int idleYields = 0;
        boolean firstYieldContended = false;
        boolean parked = false;
        long yieldPhaseStart = 0;
        long now = 0; // the clock when the last yield returned: the next yield's start
        long park = policy.minParkNanos();
        do {
            barrier.checkAlert();
            if (spun < spins && yields == 0) {
                spun++;
                clock.spinOnce();
                continue;
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
                    continue;
                }
                idleYields = policy.yields(); // the phase ran out of time: park from now on
            }
            parked = true;
            clock.park(park);
            park = Math.min(park << 1, policy.maxParkNanos());
        } while ((available = dependentSequence.get()) < sequence);
        spin.waitEnded(yields, firstYieldContended, parked);
        return available;
    }

    /** {@return how many spins the next wait makes before yielding (adapted to how earlier waits ended)} */
    int spinLimit() {
        return spin.limit();
    }

    @Override
    public void signalAllWhenBlocking() {
        // nothing blocks on a lock here; parked consumers wake by their period (or by interrupt on close)
    }
}
