package org.spdl4j.engine.ring;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;

/**
 * The {@code BACKOFF} wait of a consumer: the phases of {@link BackoffIdle} (spin for an {@link AdaptiveSpin adaptive}
 * number of iterations, yield while the CPU is contended, bounded, then park with a doubling period; see
 * {@link BackoffPolicy}), run between checks of the producer's cursor and the barrier's alert. Fast hand-off when
 * items flow, no lost step when the machine runs more stage threads than it has cores, and next to no CPU when a
 * stage idles (the default of spdl4j, since a small machine runs many idle stages).
 *
 * <p><b>Threading:</b> one instance serves every consumer of a ring (Disruptor keeps one wait strategy per
 * sequencer); each consumer thread gets its own {@link BackoffIdle}, so the phase of a wait and the learned spin
 * length are per thread. That costs one {@link ThreadLocal} lookup per wait that finds nothing published (never per
 * item), and no allocation after the thread's first wait. Alertable: every iteration checks the barrier's alert, and
 * parking returns on interrupt, so {@code close()} ends the wait within one park period. Producers publish without
 * signalling (no lock).
 */
public final class BackoffWaitStrategy implements WaitStrategy {
    private final ThreadLocal<BackoffIdle> idles;

    /**
     * Creates the strategy.
     *
     * @param policy the phases
     */
    public BackoffWaitStrategy(BackoffPolicy policy) {
        this(policy, BackoffClock.SYSTEM);
    }

    BackoffWaitStrategy(BackoffPolicy policy, BackoffClock clock) {
        this.idles = ThreadLocal.withInitial(() -> new BackoffIdle(policy, clock));
    }

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException {
        long available = dependentSequence.get(); // acquire load of the producer's cursor (or the stage before)
        if (available >= sequence) {
            return available;
        }
        BackoffIdle idle = idles.get();
        idle.reset();
        do {
            barrier.checkAlert();
            idle.idle();
        } while ((available = dependentSequence.get()) < sequence);
        idle.reset(); // learn from this wait now (the spin phase of the next one)
        return available;
    }

    /** {@return how many spins the calling thread's next wait makes before yielding} */
    int spinLimit() {
        return idles.get().spinLimit();
    }

    @Override
    public void signalAllWhenBlocking() {
        // nothing blocks on a lock here; parked consumers wake by their period (or by interrupt on close)
    }
}
