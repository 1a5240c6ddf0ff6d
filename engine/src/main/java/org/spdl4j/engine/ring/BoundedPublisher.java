package org.spdl4j.engine.ring;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequenced;
import org.agrona.concurrent.IdleStrategy;

/**
 * Publishes items into an {@link ItemLink} from one producing thread, waiting while the ring is full without ever
 * blocking unboundedly: Disruptor's {@code next()} spins forever on a full ring, so this uses {@code tryNext()} in a
 * loop with an {@link IdleStrategy} and gives up as soon as the pipeline's {@link RunFlag} is stopped.
 *
 * <p><b>Threading:</b> one thread only (the idle strategy keeps per-thread state). <b>Allocation:</b> none;
 * {@link InsufficientCapacityException} is Disruptor's preallocated singleton without a stack trace.
 */
public final class BoundedPublisher {
    private final RingBuffer<ItemSlot> ring;
    private final Sequenced sequenced;
    private final IdleStrategy idle;
    private final RunFlag running;
    private long waitNanos;

    BoundedPublisher(RingBuffer<ItemSlot> ring, IdleStrategy idle, RunFlag running) {
        this(ring, ring, idle, running);
    }

    private BoundedPublisher(RingBuffer<ItemSlot> ring, Sequenced sequenced, IdleStrategy idle, RunFlag running) {
        this.ring = ring;
        this.sequenced = sequenced;
        this.idle = idle;
        this.running = running;
    }

    /**
     * Creates a publisher over any Disruptor sequencer, for rings whose slots are not {@link ItemSlot}s (record
     * rings): only {@link #claimSlot()} and {@link #takeWaitNanos()} apply; the caller fills the slot and publishes
     * through the sequencer.
     *
     * @param sequenced the sequencer to claim from
     * @param idle      how to wait while full; one instance per publisher
     * @param running   the pipeline's run flag
     * @return the publisher, for one thread only
     */
    public static BoundedPublisher forSequencer(Sequenced sequenced, IdleStrategy idle, RunFlag running) {
        return new BoundedPublisher(null, sequenced, idle, running);
    }

    /**
     * Publishes an item; waits while the ring is full.
     *
     * @param item  the item, not {@code null}
     * @param epoch the epoch it belongs to
     * @return {@code true} if published, {@code false} if the pipeline stopped while waiting
     */
    public boolean publish(Object item, long epoch) {
        long seq = claim();
        if (seq < 0) {
            return false;
        }
        ring.get(seq).set(item, epoch);
        ring.publish(seq); // release store of the cursor/availability flag: the slot's fields are visible first
        return true;
    }

    /**
     * Publishes the end-of-stream marker; waits while the ring is full.
     *
     * @return {@code true} if published, {@code false} if the pipeline stopped while waiting
     */
    public boolean publishEnd() {
        long seq = claim();
        if (seq < 0) {
            return false;
        }
        ring.get(seq).setEnd();
        ring.publish(seq);
        return true;
    }

    /**
     * Returns the nanoseconds spent waiting for room (back-pressure) since the last call, and resets the count.
     *
     * @return nanoseconds waited, 0 when every publish found room at once
     */
    public long takeWaitNanos() {
        long w = waitNanos;
        waitNanos = 0;
        return w;
    }

    /**
     * Claims the next slot, waiting while the ring is full; the caller writes it and publishes the sequence.
     *
     * @return the claimed sequence, or -1 if the pipeline stopped while waiting
     */
    public long claimSlot() {
        return claim();
    }

    private long claim() {
        try {
            return sequenced.tryNext();
        } catch (InsufficientCapacityException full) {
            return claimWhenFull();
        }
    }

    private long claimWhenFull() {
        long start = System.nanoTime();
        idle.reset();
        try {
            while (running.isRunning()) {
                try {
                    return sequenced.tryNext();
                } catch (InsufficientCapacityException full) {
                    idle.idle();
                }
            }
            return -1L;
        } finally {
            waitNanos += System.nanoTime() - start;
        }
    }
}
