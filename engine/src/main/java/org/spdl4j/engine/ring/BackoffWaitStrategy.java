package org.spdl4j.engine.ring;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;

/**
 * The {@code BACKOFF} wait of a consumer: spin, yield while the CPU is contended (bounded), then park with a period
 * doubling up to the policy's longest; see {@link BackoffPolicy} for when the yield phase ends. Fast hand-off when
 * items flow, no lost step when the machine runs more stage threads than it has cores, and next to no CPU when a
 * stage idles (the default of spdl4j, since a small machine runs many idle stages).
 *
 * <p>Stateless: the phase of a wait lives on the waiting thread's stack, so one instance serves every consumer of a
 * ring. Alertable: every iteration checks the barrier's alert, and parking returns on interrupt, so
 * {@code close()} ends the wait within one park period. Producers publish without signalling (no lock).
 */
public final class BackoffWaitStrategy implements WaitStrategy {
    private final BackoffPolicy policy;
    private final BackoffClock clock;

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
    }

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException {
        long available;
        int spun = 0;
        int idleYields = 0;
        long yieldPhaseStart = -1L;
        long park = policy.minParkNanos();
        while ((available = dependentSequence.get()) < sequence) { // acquire load of the producer's cursor
            barrier.checkAlert();
            if (spun < policy.spins()) {
                spun++;
                Thread.onSpinWait();
                continue;
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
                    continue;
                }
                idleYields = policy.yields(); // the phase ran out of time: park from now on
            }
            clock.park(park);
            park = Math.min(park << 1, policy.maxParkNanos());
        }
        return available;
    }

    @Override
    public void signalAllWhenBlocking() {
        // nothing blocks on a lock here; parked consumers wake by their period (or by interrupt on close)
    }
}
