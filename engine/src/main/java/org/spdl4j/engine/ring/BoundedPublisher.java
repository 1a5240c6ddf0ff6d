package org.spdl4j.engine.ring;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.Sequenced;
import com.lmax.disruptor.Sequencer;
import java.util.function.IntConsumer;
import org.agrona.concurrent.IdleStrategy;
import org.spdl4j.engine.stats.WaitKind;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * Publishes items into an {@link ItemLink} from one producing thread, waiting while the ring is full without ever
 * blocking unboundedly: Disruptor's {@code next()} spins forever on a full ring, so this claims without waiting
 * ({@code tryNext()}, or its own claim for a single producer, below) in a loop with an {@link IdleStrategy} and gives
 * up as soon as the pipeline's {@link RunFlag} is stopped.
 *
 * <p>One item at a time ({@link #publish}), or a batch as claimed ranges ({@code publishAll}, used by
 * {@link BatchingPublisher}): one claim ({@code tryNext(n)}, or this publisher's own for a single producer) and one
 * {@code publish(lo, hi)} for as many items as the ring has room for, so a single-producer ring stores its cursor
 * once per range and a multi-producer ring CASes its cursor once per range (it still sets one availability flag per
 * slot).
 *
 * <p><b>Claims of a single producer are this publisher's own.</b> When the publishing thread is the ring's only
 * producer it keeps its claim counter here, with a cached bound of how far the consumers let it go (the slowest
 * gating sequence plus the capacity, reread only when a claim reaches it, as a JCTools SPSC queue caches its
 * consumer index): a claim is then a compare and an increment of plain fields, inlined into the caller's loop. The
 * Disruptor sequencer still owns publication (its cursor, stored with release semantics by {@code publish}), the
 * gating sequences and the consumers' wait strategy; its own claim counter is not used for this ring (this thread is
 * the only one that could claim). Disruptor's single-producer {@code tryNext} would cost a call through the
 * {@link Sequenced} interface, a range check and its own cache test per item, and stores its cursor up to the last
 * claim whenever it rereads the consumers, which forbids claiming ahead of writing; this claim never publishes.
 * Several producers claim through the sequencer (a CAS on its cursor per range).
 *
 * <p><b>Threading:</b> one thread only (the idle strategy keeps per-thread state). <b>Allocation:</b> none;
 * {@link InsufficientCapacityException} is Disruptor's preallocated singleton without a stack trace.
 */
public final class BoundedPublisher {
    private final ItemSlots slots;
    private final Sequenced sequenced;
    private final IdleStrategy idle;
    private final RunFlag running;
    /** The ring's sequencer when this thread is its only producer (claims are then ours), else {@code null}. */
    private final Sequencer own;
    private final long capacity;
    /** Single producer: the last sequence claimed (published or not). */
    private long lastClaimed = -1L;
    /** Single producer: the highest sequence the consumers let us claim, as of the last look at them. */
    private long claimLimit = -1L;
    private long waitNanos;
    /** Where waits for room are reported while they last, or {@code null} (see {@link #reportWaitsTo}). */
    private WorkerStats waits;
    /** The task slots a wait for room leaves idle (see {@link #weighWaits}). */
    private int waitSlots = 1;
    private int claimed; // how many sequences the last claimUpTo took

    BoundedPublisher(Sequencer sequencer, ItemSlots slots, boolean singleProducer, IdleStrategy idle,
                     RunFlag running) {
        this(sequencer, slots, singleProducer ? sequencer : null, idle, running);
    }

    private BoundedPublisher(Sequenced sequenced, ItemSlots slots, Sequencer own, IdleStrategy idle,
                             RunFlag running) {
        this.slots = slots;
        this.sequenced = sequenced;
        this.own = own;
        this.capacity = sequenced.getBufferSize();
        this.lastClaimed = own == null ? -1L : own.getCursor(); // a new ring: -1
        this.claimLimit = lastClaimed;
        this.idle = idle;
        this.running = running;
    }

    /**
     * Creates a publisher over any Disruptor sequencer, for rings whose slots are not {@link ItemSlots} (record
     * rings): only {@link #claimSlot()} and {@link #takeWaitNanos()} apply; the caller fills the slot and publishes
     * through the sequencer.
     *
     * @param sequenced the sequencer to claim from
     * @param idle      how to wait while full; one instance per publisher
     * @param running   the pipeline's run flag
     * @return the publisher, for one thread only
     */
    public static BoundedPublisher forSequencer(Sequenced sequenced, IdleStrategy idle, RunFlag running) {
        return new BoundedPublisher(sequenced, null, null, idle, running);
    }

    /**
     * Reports every later wait for room to {@code stats} as back-pressure, while it lasts and when it ends
     * ({@link WorkerStats#waitStarted}, {@link WorkerStats#waitEnded}): the owner then records no
     * {@link #takeWaitNanos()} itself (which still returns the waits, for other uses). Call before the first claim,
     * on the publishing thread or before it starts.
     *
     * @param stats the publishing worker's stats, or {@code null} to report nothing
     */
    public void reportWaitsTo(WorkerStats stats) {
        this.waits = stats;
    }

    /**
     * Sets how many task slots the following waits for room leave idle, the weight they are reported with (an async
     * stage's dispatcher waits for all its idle slots); 1 unless set. A plain store, publishing thread only.
     *
     * @param slots the idle task slots, at least 1
     */
    public void weighWaits(int slots) {
        this.waitSlots = slots;
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
        slots.set(seq, item, epoch);
        sequenced.publish(seq); // release store of the cursor/availability flag: the slot's item and epoch are visible first
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
        slots.setEnd(seq);
        sequenced.publish(seq);
        return true;
    }

    /**
     * Publishes {@code items[0, count)} with their epochs in order, as few claimed ranges as the ring's room allows
     * (one when it has room for all); waits while the ring is full. Each range's slots are written, then the range
     * is published once. Does not clear the arrays.
     *
     * @param items     the items, none {@code null}
     * @param epochs    their epochs
     * @param count     how many, at least 1
     * @param published told how many items each range made visible, right after it is published (before any wait
     *                  for the next range)
     * @return how many were published: {@code count}, or fewer (a prefix) if the pipeline stopped while waiting
     */
    int publishAll(Object[] items, long[] epochs, int count, IntConsumer published) {
        int done = 0;
        while (done < count) {
            long hi = claimUpTo(count - done);
            if (hi < 0) {
                break;
            }
            long lo = hi - claimed + 1;
            for (long s = lo; s <= hi; s++, done++) {
                slots.set(s, items[done], epochs[done]);
            }
            // Single producer: one release store of the cursor for the range. Several producers: one release store
            // of each slot's availability flag, then one signal. Either way the slots' fields are visible first.
            sequenced.publish(lo, hi);
            published.accept((int) (hi - lo + 1));
        }
        return done;
    }

    /**
     * {@return whether this thread is the ring's only producer and so claims on its own} Only then do the run
     * methods apply ({@link #claimedTo()}, {@link #claimLimit()}, {@link #refreshClaimLimit()},
     * {@link #claimedThrough}, {@link #slots()}, {@link #publishRange}): a worker walking a run keeps the claim
     * counter and its limit in locals, writes each result into the next slot, and publishes the range once.
     */
    public boolean ownsClaims() {
        return own != null;
    }

    /** {@return single producer: the last sequence claimed} */
    public long claimedTo() {
        return lastClaimed;
    }

    /** {@return single producer: the highest sequence claimable without looking at the consumers again} */
    public long claimLimit() {
        return claimLimit;
    }

    /** {@return single producer: the highest sequence claimable, after looking at the consumers again} */
    public long refreshClaimLimit() {
        return refreshLimit();
    }

    /**
     * Single producer: the caller's loop claimed (and wrote, or will have written before it publishes) every
     * sequence up to {@code sequence}, at most {@link #claimLimit()}.
     *
     * @param sequence the last sequence claimed
     */
    public void claimedThrough(long sequence) {
        lastClaimed = sequence;
    }

    /** {@return the ring's slots, for a single producer writing its claimed sequences from a loop of its own} */
    public ItemSlots slots() {
        return slots;
    }

    /** {@return the next sequence if the ring has room for it now, else -1; never waits} */
    public long tryClaim() {
        if (own != null) {
            long next = lastClaimed + 1;
            if (next > claimLimit && next > refreshLimit()) {
                return -1L;
            }
            lastClaimed = next;
            return next;
        }
        try {
            return sequenced.tryNext();
        } catch (InsufficientCapacityException full) {
            return -1L;
        }
    }

    /**
     * Single producer: rereads how far the consumers are (acquire loads of their gating sequences, so their reads of
     * the slots happen before we overwrite them) and caches the highest sequence that leaves no slot unread.
     */
    private long refreshLimit() {
        // getMinimumSequence is the lowest gating sequence, or the cursor when every consumer has retired.
        claimLimit = own.getMinimumSequence() + capacity;
        return claimLimit;
    }

    /**
     * Publishes a range this thread claimed and wrote.
     *
     * @param lo the first sequence
     * @param hi the last sequence
     */
    public void publishRange(long lo, long hi) {
        sequenced.publish(lo, hi); // release store(s): the range's items and epochs are visible first
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
        long seq = tryClaim();
        return seq >= 0 ? seq : claimWhenFull(1);
    }

    /** Claims between 1 and {@code n} sequences (all if there is room); leaves the count in {@link #claimed}. */
    private long claimUpTo(int n) {
        if (own != null) {
            long hi = tryClaimWhatIsFree(n);
            return hi >= 0 ? hi : claimWhenFull(n);
        }
        try {
            long hi = sequenced.tryNext(n);
            claimed = n;
            return hi;
        } catch (InsufficientCapacityException full) {
            long hi = tryClaimWhatIsFree(n); // part of a batch fits: no wait to count
            return hi >= 0 ? hi : claimWhenFull(n);
        }
    }

    /** Claims {@code min(n, free slots)} if any slot is free, else returns -1. */
    private long tryClaimWhatIsFree(int n) {
        if (own != null) {
            long free = claimLimit - lastClaimed;
            if (free < n) {
                free = refreshLimit() - lastClaimed;
                if (free <= 0) {
                    return -1L;
                }
            }
            claimed = (int) Math.min(n, free);
            lastClaimed += claimed;
            return lastClaimed;
        }
        long free = n == 1 ? 1 : sequenced.remainingCapacity(); // reads the consumers' sequences
        if (free <= 0) {
            return -1L;
        }
        int k = (int) Math.min(n, free);
        try {
            long hi = sequenced.tryNext(k);
            claimed = k;
            return hi;
        } catch (InsufficientCapacityException full) {
            return -1L; // still full, or another producer took the room first
        }
    }

    private long claimWhenFull(int n) {
        long start = System.nanoTime();
        WorkerStats w = waits;
        if (w != null) {
            w.waitStarted(WaitKind.BACK_PRESSURED, start, waitSlots); // per wait: readers see it while it lasts
        }
        idle.reset();
        try {
            while (running.isRunning()) {
                long hi = tryClaimWhatIsFree(n);
                if (hi >= 0) {
                    return hi;
                }
                idle.idle();
            }
            return -1L;
        } finally {
            long end = System.nanoTime();
            waitNanos += end - start;
            if (w != null) {
                w.waitEnded(end);
            }
        }
    }
}
