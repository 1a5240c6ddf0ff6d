package org.spdl4j.engine.source;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The turns in which requests take large buffers from an allocator that has few of them (a pool whose largest size
 * classes hold a few slabs), in the order of their tickets. A consumer that takes results in that order (an
 * {@code INPUT}-ordered stage) holds younger results until the older are done; were a younger request to take the
 * last large buffers first, it would hold them while waiting behind an older request that waits for a buffer: a stall
 * until the allocator's timeout, then the older item lost. In turn, every large buffer a waiting request needs is
 * held by an older request or by the consumer, and both give it back without waiting for it.
 *
 * <p><b>Protocol:</b> each request gets a {@link #ticket()} in the order it must be served, {@link #open opens} it once
 * it counts (its work has started: it may take a large buffer), and {@link #pass passes} it once it will take no large
 * buffer out of turn (it has its large buffer, it needs none, or it ended). Before taking a large buffer, a request
 * {@link #awaitTurn awaits its turn}: until no <em>open</em> ticket older than its own is left. A ticket issued but
 * not opened holds no one back (a request still queued for a slot that a younger one holds must not stall it); a
 * caller whose requests count from the moment they are issued opens each ticket right after taking it.
 *
 * <p><b>Ending a wait:</b> a wait ends with its {@link Outcome}: the turn came; the caller's {@code stop} condition
 * became true (looked at whenever the oldest open ticket passes, and after {@link #wake()}); the turns were
 * {@link #close() closed} (every wait, now and later, ends at once: the owner is shutting down); the bound given at
 * construction passed (a ticket never passed must not hang its younger ones forever; going on then risks the old
 * stall); or the waiting thread was interrupted (the interrupt flag is set again). Without a bound, progress rests on
 * the callers: the oldest open ticket waits for nothing, so each wait ends once every older request passes or ends.
 *
 * <p><b>Threading:</b> thread-safe. {@link #ticket()} is lock-free; the rest runs under one short lock, never held
 * while a request waits. Any thread may pass or open any ticket. <b>Blocking:</b> {@link #awaitTurn} only.
 * <b>Allocation:</b> none per ticket; the open tickets are kept sorted in one array, which grows (doubling) to the
 * most tickets ever open at once and stays there. <b>Not</b> {@link AutoCloseable}: it holds no resource;
 * {@link #close()} only ends the waits.
 */
public final class LargeBufferTurns {
    private static final int INITIAL_OPEN = 16;
    /** Bounds at least this long are no bound (their nanoseconds would not fit a long). */
    private static final Duration NO_BOUND = Duration.ofNanos(Long.MAX_VALUE);

    private final long maxWaitNanos;
    private final AtomicLong nextTicket = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when the oldest open ticket passes, on {@link #wake()} and on {@link #close()}. */
    private final Condition moved = lock.newCondition();
    /** Open tickets, ascending, in {@code [0, openCount)}; guarded by {@link #lock}. */
    private long[] open = new long[INITIAL_OPEN];
    /** Guarded by {@link #lock}. */
    private int openCount;
    /** Requests in {@link #awaitTurn} now; guarded by {@link #lock}. */
    private int waiting;
    /** Set once by {@link #close()}; guarded by {@link #lock}. */
    private boolean closed;

    /** How a wait for a turn ended. */
    public enum Outcome {
        /** No older ticket is open: take the large buffer. */
        TURN_CAME,
        /** The caller's {@code stop} condition was true: it no longer needs the buffer. */
        STOPPED,
        /** The turns were closed: the owner is shutting down. */
        CLOSED,
        /** The bound passed with an older ticket still open: take the buffer out of turn, or give up. */
        TIMED_OUT,
        /** The waiting thread was interrupted; its interrupt flag is set again. */
        INTERRUPTED
    }

    /** Turns whose waits have no bound (each ends when its turn comes, on stop, close or interrupt). */
    public LargeBufferTurns() {
        this.maxWaitNanos = Long.MAX_VALUE;
    }

    /**
     * Turns whose waits end after {@code maxWait} at the latest, usually the allocator's own acquire timeout.
     *
     * @param maxWait the longest a request waits for its turn; positive (292 years or more: no bound)
     * @throws IllegalArgumentException when {@code maxWait} is zero or negative
     */
    public LargeBufferTurns(Duration maxWait) {
        Objects.requireNonNull(maxWait, "maxWait");
        if (maxWait.isNegative() || maxWait.isZero()) {
            throw new IllegalArgumentException("large buffer turns: maxWait must be positive, got " + maxWait
                + "; use the no-argument constructor for waits without a bound");
        }
        this.maxWaitNanos = maxWait.compareTo(NO_BOUND) >= 0 ? Long.MAX_VALUE : maxWait.toNanos();
    }

    /** {@return the next ticket (0, 1, 2, ...), in the order of the calls; not open yet} */
    public long ticket() {
        return nextTicket.getAndIncrement();
    }

    /**
     * Opens a ticket: its request has started, and younger large requests wait for it from now on. Opening an open
     * ticket, or any ticket once the turns are closed, does nothing.
     *
     * @param ticket a ticket from {@link #ticket()}
     */
    public void open(long ticket) {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            int at = Arrays.binarySearch(open, 0, openCount, ticket);
            if (at >= 0) {
                return;
            }
            at = -at - 1;
            if (openCount == open.length) {
                open = Arrays.copyOf(open, 2 * open.length);
            }
            System.arraycopy(open, at, open, at + 1, openCount - at); // tickets open in order: usually none to move
            open[at] = ticket;
            openCount++;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Passes a ticket: its request takes no more large buffers in turn, and younger ones no longer wait for it.
     * Idempotent: passing a ticket that is not open (never opened, passed already, or the turns closed) does nothing.
     *
     * @param ticket the ticket
     */
    public void pass(long ticket) {
        lock.lock();
        try {
            int at = Arrays.binarySearch(open, 0, openCount, ticket);
            if (at < 0) {
                return;
            }
            System.arraycopy(open, at + 1, open, at, openCount - at - 1);
            openCount--;
            if (at == 0) {
                moved.signalAll(); // only the oldest open ticket decides anyone's turn
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until no ticket older than {@code ticket} is open, or until the wait ends otherwise (see
     * {@link Outcome}). Returns at once when the turn is already there, even on an interrupted thread.
     *
     * @param ticket this request's ticket (open or not)
     * @param stop   whether the request no longer needs its buffer (it was aborted); looked at under the turns' lock,
     *               so it must be quick and must not call back into these turns
     * @return how the wait ended: take the buffer in turn only on {@link Outcome#TURN_CAME}
     */
    public Outcome awaitTurn(long ticket, BooleanSupplier stop) {
        lock.lock();
        try {
            waiting++;
            try {
                long left = maxWaitNanos;
                for (;;) {
                    if (closed) {
                        return Outcome.CLOSED;
                    }
                    if (stop.getAsBoolean()) {
                        return Outcome.STOPPED;
                    }
                    if (openCount == 0 || open[0] >= ticket) {
                        return Outcome.TURN_CAME;
                    }
                    if (maxWaitNanos == Long.MAX_VALUE) {
                        moved.await();
                    } else if (left <= 0) {
                        return Outcome.TIMED_OUT;
                    } else {
                        left = moved.awaitNanos(left);
                    }
                }
            } finally {
                waiting--;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.INTERRUPTED;
        } finally {
            lock.unlock();
        }
    }

    /** Makes every waiting request look at its {@code stop} condition again (a request was aborted). */
    public void wake() {
        lock.lock();
        try {
            moved.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Ends every wait, now and later, and forgets the open tickets (the owner is shutting down). Idempotent. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            openCount = 0;
            moved.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** {@return requests waiting for their turn now, for tests and stats} */
    public int waiting() {
        lock.lock();
        try {
            return waiting;
        } finally {
            lock.unlock();
        }
    }
}
