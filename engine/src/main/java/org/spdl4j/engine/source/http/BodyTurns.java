package org.spdl4j.engine.source.http;

import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The turns in which large bodies take their buffers ({@link LargeBodies#inCallOrder()}): each object gets a ticket
 * when it is asked for, opens it when its fetch starts and passes it once it will take no large buffer out of turn
 * (it has its large buffer, its body is known to be small, or the object is done); a large body first waits until
 * every older open ticket has passed.
 *
 * <p><b>Progress:</b> the oldest open ticket waits for nothing, and every object completes (its attempts have
 * deadlines, {@link #close()} ends every wait), so each wait ends. Only started fetches are open: a younger fetch
 * never waits for an older one still queued for a slot it holds. <b>Threading:</b> thread-safe; {@link #ticket()}
 * lock-free, the rest under one short lock. <b>Blocking:</b> {@link #awaitTurn} only. <b>Allocation:</b> a boxed
 * ticket and a tree node per object (like the rest of an object's futures); open tickets are at most the fetches in
 * flight.
 */
final class BodyTurns {
    private final AtomicLong nextTicket = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition passed = lock.newCondition();
    /** Tickets of started fetches not passed yet; guarded by {@link #lock}. */
    private final TreeSet<Long> open = new TreeSet<>();
    /** Bodies waiting in {@link #awaitTurn}; guarded by {@link #lock}. */
    private int waiting;
    /** Set once by {@link #close()}; guarded by {@link #lock}. */
    private boolean closed;

    /** {@return the next ticket, in the order of the calls} */
    long ticket() {
        return nextTicket.getAndIncrement();
    }

    /**
     * Opens a ticket: its fetch has started.
     *
     * @param ticket the ticket
     */
    void open(long ticket) {
        lock.lock();
        try {
            if (!closed) {
                open.add(ticket);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Passes a ticket: it takes no more large buffers in turn. Idempotent; passing a ticket not open does nothing.
     *
     * @param ticket the ticket
     */
    void pass(long ticket) {
        lock.lock();
        try {
            if (open.remove(ticket)) {
                passed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until no ticket older than this one is open, or {@code stop} is true (checked whenever a ticket passes
     * and after {@link #wake()}), or the turns are closed.
     *
     * @param ticket this body's ticket
     * @param stop   whether the body no longer needs its buffer (it was aborted)
     * @return whether the turn came (false: stopped, closed, or interrupted, with the interrupt flag set again)
     */
    boolean awaitTurn(long ticket, BooleanSupplier stop) {
        lock.lock();
        try {
            waiting++;
            try {
                while (!closed && !stop.getAsBoolean()) {
                    if (open.isEmpty() || open.first() >= ticket) {
                        return true;
                    }
                    passed.await();
                }
                return false;
            } finally {
                waiting--;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Makes every waiting body look at its {@code stop} condition again (a body was aborted). */
    void wake() {
        lock.lock();
        try {
            passed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Ends every wait, now and later (the fetcher is closing). */
    void close() {
        lock.lock();
        try {
            closed = true;
            open.clear();
            passed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** {@return bodies waiting for their turn now, for tests} */
    int waiting() {
        lock.lock();
        try {
            return waiting;
        } finally {
            lock.unlock();
        }
    }
}
