package org.spdl4j.examples.image;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * With {@code INPUT} order, reads of large files take their buffers in input order. The read stage holds finished
 * reads until the oldest is done, and the size classes above 1 MB have a few slabs only; a younger large read that
 * took the last one before an older large read (its virtual thread simply ran first) held it while waiting behind
 * that older read, which waited for a slab: a stall until the pool's acquire timeout, then the older image dropped.
 * Taken in input order, every slab a waiting large read needs is held by an older read or further down the
 * pipeline, and both give it back without waiting for it.
 *
 * <p>The source stamps each item with a {@link #ticket()}; each read {@link #pass passes} its ticket once it has its
 * buffer (or failed without one); a large read first {@link #awaitTurn awaits} the passing of every older ticket.
 * Small reads never wait: their classes hold a slab for every item in flight. Tickets in flight span at most the
 * read stage's concurrency (with {@code INPUT} order the stage starts a task only once the one {@code concurrency}
 * tickets older was published), so a ring of that many flags remembers which ones passed out of order.
 *
 * <p><b>Threading:</b> {@link #ticket()} on the source thread; the rest on any read task's thread (one short lock).
 * <b>Blocking:</b> {@link #awaitTurn} waits at most its bound, then lets the read go on (a ticket never passed must
 * not hang the loader; it then risks the old stall). <b>Allocation:</b> none.
 */
final class LargeReadTurns {
    private static final Logger LOG = LoggerFactory.getLogger(LargeReadTurns.class);

    private final boolean[] passed;
    private final int mask;
    private final long maxWaitNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition turnMoved = lock.newCondition();
    /** Source thread only: the next ticket. */
    private long nextTicket;
    /** The oldest ticket not passed yet; guarded by {@link #lock}. */
    private long turn;

    /**
     * Creates the turns of one read stage.
     *
     * @param readConcurrency the read stage's tasks in flight
     * @param maxWaitNanos    longest a large read waits for its turn (the pool's acquire timeout)
     */
    LargeReadTurns(int readConcurrency, long maxWaitNanos) {
        int size = Integer.highestOneBit(Math.max(2, 2 * readConcurrency - 1)) << 1; // a power of two, > concurrency
        this.passed = new boolean[size];
        this.mask = size - 1;
        this.maxWaitNanos = maxWaitNanos;
    }

    /** {@return the next item's ticket, in input order (source thread only)} */
    long ticket() {
        return nextTicket++;
    }

    /**
     * Waits until every older ticket has passed, or the bound is up.
     *
     * @param ticket this read's ticket
     * @param what   the file, for the log line if the bound is reached
     * @throws IllegalStateException when interrupted while waiting (the interrupt is kept)
     */
    void awaitTurn(long ticket, Object what) {
        lock.lock();
        try {
            long left = maxWaitNanos;
            while (turn < ticket) {
                if (left <= 0) {
                    LOG.warn("read of {}: older reads still hold their turn after {} ms; taking a buffer out of "
                        + "input order", what, TimeUnit.NANOSECONDS.toMillis(maxWaitNanos));
                    return;
                }
                left = turnMoved.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("read of " + what + " interrupted while waiting for older reads to take "
                + "their buffers", e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Marks a ticket as passed (its read has its buffer, or failed before taking one); call once per ticket.
     *
     * @param ticket the ticket
     */
    void pass(long ticket) {
        lock.lock();
        try {
            if (ticket < turn || ticket - turn > mask) {
                return; // not in the window (cannot happen with INPUT order); the bounded wait covers it
            }
            passed[(int) (ticket & mask)] = true;
            boolean moved = false;
            while (passed[(int) (turn & mask)]) {
                passed[(int) (turn & mask)] = false;
                turn++;
                moved = true;
            }
            if (moved) {
                turnMoved.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }
}
