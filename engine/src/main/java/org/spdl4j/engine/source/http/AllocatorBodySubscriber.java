package org.spdl4j.engine.source.http;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import org.spdl4j.engine.source.LargeBufferTurns;
import org.spdl4j.engine.source.SampleAllocator;

/**
 * Collects an HTTP body straight into a buffer from a {@link SampleAllocator}: one copy, from the client's network
 * buffers into ours. With a {@code Content-Length} the buffer is allocated at the exact size; without one it starts at
 * {@value #UNKNOWN_LENGTH_START} bytes (or at the first chunk's size when the allocator has no buffer that large) and
 * doubles (allocate, copy, release the old one), up to the large size ({@link LargeBodies}), past which it grows at
 * once to the limit. With turns, a large buffer is taken only once every older object has taken its own or ended.
 *
 * <p><b>Ownership:</b> exactly one of completion (the buffer passes to the caller), error or {@link #abort()} (the
 * buffer is released) happens, guarded by one flag, whichever thread calls. <b>Threading:</b> the HTTP client calls
 * {@code onNext} serially (reactive-streams rule) and may block there while the allocator waits for a free buffer
 * (back-pressure from a full pool) or for its turn; {@link #abort()} may race with it and never blocks: it frees the
 * buffer and fails the body at once if the lock is free, or leaves both to {@code onNext}, which does them when it lets
 * go of the lock (the fetcher aborts on its one timer thread, which must not wait behind an allocation); it also ends a
 * wait for the turn (under a lock never held while waiting). The body fails only after its buffer is back, so whoever
 * waits for it (the fetcher's close) finds nothing held.
 */
final class AllocatorBodySubscriber implements HttpResponse.BodySubscriber<ByteBuffer> {
    private static final int UNKNOWN_LENGTH_START = 64 * 1024;
    private static final int SMALL_START = 4 * 1024;
    private final SampleAllocator allocator;
    private final long declaredLength;
    private final int maxBytes;
    private final CompletableFuture<ByteBuffer> body = new CompletableFuture<>();
    private final AtomicBoolean finished = new AtomicBoolean();
    /** Guards {@link #buffer}: held by onNext/onComplete throughout, only tried by a failing thread. */
    private final ReentrantLock lock = new ReentrantLock();
    private volatile Flow.Subscription subscription;
    /** Why the body failed, set once by the thread that finished it so; null while running or once completed. */
    private volatile Throwable failure;
    private ByteBuffer buffer;
    /** Buffers over this are large ({@link LargeBodies}). */
    private final int largeBytes;
    /** The turns large buffers are taken in, or null (any order). */
    private final LargeBufferTurns turns;
    private final long ticket;
    /**
     * When the current wait for a turn began (0: not waiting) and how long the waits before it took: the attempt's
     * deadline does not count them. Written by onNext only: the sum first, then the start cleared, so a reader that
     * reads the start and then the sum never counts less than was waited (at worst one wait twice, moving its
     * deadline later).
     */
    private volatile long waitStartedAt;
    private volatile long waitedBefore;

    AllocatorBodySubscriber(SampleAllocator allocator, long declaredLength, int maxBytes) {
        this(allocator, declaredLength, maxBytes, LargeBodies.NONE.minBytes(), null, -1);
    }

    /**
     * A body whose large buffers follow {@link LargeBodies}.
     *
     * @param allocator      where the body goes
     * @param declaredLength its Content-Length, or -1
     * @param maxBytes       the largest body accepted
     * @param largeBytes     buffers over this are large
     * @param turns          the turns large buffers are taken in, or null for any order
     * @param ticket         this object's ticket in {@code turns}
     */
    AllocatorBodySubscriber(SampleAllocator allocator, long declaredLength, int maxBytes, int largeBytes,
                            LargeBufferTurns turns, long ticket) {
        this.allocator = allocator;
        this.declaredLength = declaredLength;
        this.maxBytes = maxBytes;
        this.largeBytes = largeBytes;
        this.turns = turns;
        this.ticket = ticket;
    }

    /** {@return how long the body has waited for older objects to take their large buffers (not the server's time)} */
    long waitedForTurnNanos() {
        long since = waitStartedAt; // before the sum: see the fields
        long before = waitedBefore;
        return before + (since == 0 ? 0 : Math.max(0, System.nanoTime() - since));
    }

    @Override
    public CompletionStage<ByteBuffer> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (declaredLength > maxBytes) {
            fail(new IOException("object of " + declaredLength + " bytes exceeds the limit of " + maxBytes));
            return;
        }
        if (turns != null && declaredLength >= 0 && declaredLength <= largeBytes) {
            turns.pass(ticket); // its one buffer is small: younger large bodies need not wait for it
        }
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> chunks) {
        if (finished.get()) {
            return;
        }
        lock.lock(); // serial calls: uncontended but for a failing thread's tryLock
        try {
            if (finished.get()) {
                return;
            }
            for (ByteBuffer c : chunks) {
                if (!ensure(c.remaining())) {
                    return;
                }
                buffer.put(c);
            }
        } finally {
            lock.unlock();
            releaseIfFinished(); // an abort while we held the lock (it could not free the buffer): free it now
        }
    }

    private boolean ensure(int more) {
        if (buffer == null) {
            buffer = declaredLength >= 0 ? take((int) declaredLength) : allocateFirstOfUnknownLength(more);
            if (buffer == null) {
                return false;
            }
        }
        if (buffer.remaining() >= more) {
            return true;
        }
        long needed = (long) buffer.position() + more;
        if (needed > maxBytes || declaredLength >= 0) {
            fail(new IOException(declaredLength >= 0 ? "body longer than its Content-Length " + declaredLength
                    : "body exceeds the limit of " + maxBytes + " bytes"));
            return false;
        }
        // grow from the size asked (the limit): an allocator may hand out more capacity than asked, not ours to use
        int size = (int) Math.min(maxBytes, Math.max(needed, 2L * buffer.limit()));
        if (size > largeBytes) {
            size = maxBytes; // one large buffer, not a chain of them each taken while holding the last (LargeBodies)
        }
        ByteBuffer bigger = take(size);
        if (bigger == null) {
            return false;
        }
        bigger.put(buffer.flip());
        allocator.release(buffer);
        buffer = bigger;
        return !finished.get(); // aborted while we allocated: stop (the buffer is freed on the way out)
    }

    /**
     * The first buffer of a body without a Content-Length: {@value #UNKNOWN_LENGTH_START} bytes (or the limit), so
     * a body up to that size never grows (growing holds the old buffer while it asks for the next, which on a pool
     * whose class has few slabs waits for a slab only this body could free). An allocator whose largest buffer is
     * smaller (a pool of small slabs) gets the first chunk's size, at least {@value #SMALL_START} bytes, instead.
     */
    private ByteBuffer allocateFirstOfUnknownLength(int firstChunk) {
        int start = Math.min(maxBytes, UNKNOWN_LENGTH_START);
        if (start > largeBytes) {
            return take(maxBytes); // large from the start: its one large buffer (LargeBodies)
        }
        try {
            return allocator.allocate(start);
        } catch (IllegalArgumentException tooLarge) { // a pool without a slab that large ("larger than its largest")
            return allocateOrFail(Math.min(maxBytes, Math.max(firstChunk, SMALL_START)));
        } catch (RuntimeException e) {
            fail(e);
            return null;
        }
    }

    /**
     * Takes a buffer: a large one in turn, when turns are kept. The ticket passes once the body has the buffer it
     * keeps (a known length, or the largest size); a small buffer of unknown length keeps the ticket open, since the
     * body may yet need a large one. A body aborted while it waits takes nothing and keeps its ticket open (a retry
     * takes its turn again). Null when the body failed.
     */
    private ByteBuffer take(int size) {
        boolean inTurn = turns != null && size > largeBytes;
        if (inTurn) {
            long start = System.nanoTime() | 1; // never 0, which means "not waiting"
            waitStartedAt = start;
            LargeBufferTurns.Outcome outcome;
            try {
                outcome = turns.awaitTurn(ticket, finished::get); // no bound: the fetcher's turns have none
            } finally {
                waitedBefore += System.nanoTime() - start; // onNext's thread only (serial calls)
                waitStartedAt = 0;
            }
            if (outcome != LargeBufferTurns.Outcome.TURN_CAME) { // aborted (failed already), closing, interrupted
                fail(new IOException("no turn to take a large buffer of " + size + " bytes (" + outcome + "): the "
                        + "fetcher is closing or the client's thread was interrupted"));
                return null;
            }
        }
        ByteBuffer b = allocateOrFail(size);
        if (inTurn && b != null && (declaredLength >= 0 || size >= maxBytes)) {
            turns.pass(ticket);
        }
        return b;
    }

    /** Allocates, or fails the body (releasing what it holds) when the allocator refuses; null then. */
    private ByteBuffer allocateOrFail(int size) {
        try {
            return allocator.allocate(size);
        } catch (RuntimeException e) { // pool exhausted or size beyond its largest slab: this body fails, not the client
            fail(e);
            return null;
        }
    }

    @Override
    public void onError(Throwable t) {
        fail(t);
    }

    @Override
    public void onComplete() {
        ByteBuffer done;
        lock.lock();
        try {
            if (!finished.compareAndSet(false, true)) {
                return;
            }
            done = buffer == null ? allocator.allocate(0) : buffer.flip();
            buffer = null; // ownership passes on
        } finally {
            lock.unlock();
            releaseIfFinished();
        }
        body.complete(done); // outside the lock: the caller's stages may run here
    }

    /** Stops collecting (the attempt timed out): the body fails at once and the buffer goes back. Never blocks. */
    void abort() {
        fail(new IOException("attempt aborted"));
    }

    private void fail(Throwable t) {
        if (finished.compareAndSet(false, true)) {
            failure = t; // read by whoever frees the buffer: written before this thread's tryLock below
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
            if (turns != null) {
                turns.wake(); // onNext may be waiting for its turn: it stops (and frees the buffer on its way out)
            }
        }
        releaseIfFinished();
    }

    /**
     * Frees the buffer once the body is finished without it, by whichever thread gets the lock first: a failing
     * thread tries (and leaves it when onNext holds the lock, possibly blocked in the allocator); onNext calls this
     * after it lets go. Volatile ordering makes one of them see both "finished" and "lock free": the failing thread
     * sets {@code finished} before its tryLock, onNext unlocks before it reads {@code finished}.
     */
    private void releaseIfFinished() {
        if (!finished.get() || !lock.tryLock()) {
            return;
        }
        Throwable failed;
        try {
            if (buffer != null) {
                ByteBuffer b = buffer;
                buffer = null;
                allocator.release(b);
            }
            failed = failure;
        } finally {
            lock.unlock();
        }
        if (failed != null) {
            // Only now, with the buffer back: whoever waits for the body (the fetcher's close) then finds nothing
            // held. The first completion wins; a later call finds the body failed already.
            body.completeExceptionally(failed);
        }
    }
}
