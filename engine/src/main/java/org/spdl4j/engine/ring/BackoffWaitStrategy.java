package org.spdl4j.engine.ring;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;
import java.util.concurrent.locks.LockSupport;

/**
 * A consumer wait strategy that spins, then yields, then parks with a period doubling from {@code minParkNanos} to
 * {@code maxParkNanos}: fast hand-off when items flow, next to no CPU when a stage idles (the default of spdl4j,
 * since a small machine runs many idle stages).
 *
 * <p>Stateless: the backoff counter lives on the waiting thread's stack, so one instance serves every consumer of a
 * ring. Alertable: every iteration checks the barrier's alert, and parking returns on interrupt, so
 * {@code close()} ends the wait within one park period. Producers publish without signalling (no lock).
 */
public final class BackoffWaitStrategy implements WaitStrategy {
    private final int spins;
    private final int yields;
    private final long minParkNanos;
    private final long maxParkNanos;

    /**
     * Creates the strategy.
     *
     * @param spins        iterations of {@link Thread#onSpinWait()} before yielding
     * @param yields       iterations of {@link Thread#yield()} before parking
     * @param minParkNanos the first park period
     * @param maxParkNanos the longest park period (also bounds how late a parked consumer sees a new item)
     */
    public BackoffWaitStrategy(int spins, int yields, long minParkNanos, long maxParkNanos) {
        this.spins = spins;
        this.yields = yields;
        this.minParkNanos = Math.max(1, minParkNanos);
        this.maxParkNanos = Math.max(this.minParkNanos, maxParkNanos);
    }

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException {
        long available;
        int round = 0;
        long park = minParkNanos;
        while ((available = dependentSequence.get()) < sequence) { // acquire load of the producer's cursor
            barrier.checkAlert();
            if (round < spins) {
                Thread.onSpinWait();
            } else if (round < spins + yields) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(park);
                park = Math.min(park << 1, maxParkNanos);
            }
            if (round < Integer.MAX_VALUE) {
                round++;
            }
        }
        return available;
    }

    @Override
    public void signalAllWhenBlocking() {
        // nothing blocks on a lock here; parked consumers wake by their period (or by interrupt on close)
    }
}
