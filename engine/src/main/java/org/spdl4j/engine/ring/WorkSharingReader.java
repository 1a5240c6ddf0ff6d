package org.spdl4j.engine.ring;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.TimeoutException;

/**
 * One worker's view of an {@link ItemLink}: claims the next input sequence (shared with the stage's other workers),
 * waits until it is published, hands out its slot, and releases the slot after the item was taken.
 *
 * <p>Protocol per item: {@link #next()} claims sequence {@code s} (a CAS on the stage's {@link PaddedClaimSequence},
 * or a plain increment when the worker is the link's only consumer) and waits on the barrier until {@code s} is
 * published; the caller takes what it needs from the returned slot ({@link ItemSlot#take()} clears the reference);
 * {@link #release()} stores {@code s} into this worker's gating sequence so the producer may reuse the slot. The
 * worker keeps the item while it runs the task, so the slot returns to the producer before the task, not after.
 *
 * <p><b>Threading:</b> one thread only (the owning worker). <b>Blocking:</b> {@link #next()} waits by the link's wait
 * strategy and throws {@link AlertException} when the link is alerted (close or failure). <b>Allocation:</b> none.
 */
public final class WorkSharingReader {
    private final RingBuffer<ItemSlot> ring;
    private final SequenceBarrier barrier;
    private final PaddedClaimSequence claim;
    private final Sequence own;
    private final boolean shared;
    private long sequence = -1L;
    private long cachedAvailable = -1L;
    private long lastWaitNanos;

    WorkSharingReader(RingBuffer<ItemSlot> ring, SequenceBarrier barrier, PaddedClaimSequence claim, Sequence own,
                      boolean shared) {
        this.ring = ring;
        this.barrier = barrier;
        this.claim = claim;
        this.own = own;
        this.shared = shared;
    }

    /**
     * Claims the next sequence and waits until it is published.
     *
     * @return the slot of the claimed sequence; read it, then call {@link #release()}
     * @throws AlertException when the link was alerted (the pipeline closes or failed)
     * @throws InterruptedException when interrupted while blocked in a blocking wait strategy
     */
    public ItemSlot next() throws AlertException, InterruptedException {
        return ring.get(nextSequence());
    }

    /**
     * Creates a reader over any Disruptor sequencer's barrier, for links whose slots are not {@link ItemSlot}s (record
     * rings). Only {@link #nextSequence()}, {@link #release()} and {@link #sequence()} apply.
     *
     * @param barrier the barrier the worker waits on (the cursor, or the sequences of the stage before)
     * @param claim   the claim counter shared by the worker's stage
     * @param own     the worker's own sequence, gating the producer or the next stage
     * @param shared  whether the stage has more than one worker
     * @return the reader, for the owning worker's thread only
     */
    public static WorkSharingReader overBarrier(SequenceBarrier barrier, PaddedClaimSequence claim, Sequence own,
                                                boolean shared) {
        return new WorkSharingReader(null, barrier, claim, own, shared);
    }

    /**
     * Claims the next sequence and waits until it is available; the caller reads the slot by sequence.
     *
     * @return the claimed sequence
     * @throws AlertException when the barrier was alerted (the pipeline closes or failed)
     * @throws InterruptedException when interrupted while blocked in a blocking wait strategy
     */
    public long nextSequence() throws AlertException, InterruptedException {
        // A volatile read per item: once alerted, stop even while input is still available (close must not wait
        // for a full ring to drain through a slow stage function).
        barrier.checkAlert();
        long s = shared ? claim.claimNext(own) : sequence + 1;
        sequence = s;
        lastWaitNanos = 0;
        if (s > cachedAvailable) {
            long start = System.nanoTime();
            try {
                // With several producers waitFor may return below s (claimed but not yet published): retry.
                while (cachedAvailable < s) {
                    cachedAvailable = barrier.waitFor(s); // acquire: slot contents written before publish are visible
                }
            } catch (TimeoutException e) {
                throw AlertException.INSTANCE; // only timeout strategies throw this; the engine uses none
            }
            lastWaitNanos = System.nanoTime() - start;
        }
        return s;
    }

    /** {@return nanoseconds the last {@link #next()} waited for publication, 0 when the sequence was ready} */
    public long lastWaitNanos() {
        return lastWaitNanos;
    }

    /** {@return the sequence of the slot last returned by {@link #next()}} */
    public long sequence() {
        return sequence;
    }

    /**
     * Gives back the end marker's slot and stops gating the producer for good. A worker that has left must not hold
     * the ring back: the other workers still need their end markers, and with fewer slots than workers the
     * producer could otherwise never publish them (the departed workers' sequences would pin the ring).
     */
    public void releaseAndRetire() {
        own.set(sequence);
        ring.removeGatingSequence(own); // CAS on the ring's gating array; producers read it as a volatile array
    }

    /** Gives the slot returned by the last {@link #next()} back to the producer. Call after taking the item. */
    public void release() {
        // Release store: our reads of the slot (and the cleared reference) happen before the producer reuses it.
        own.set(sequence);
    }
}
