package org.spdl4j.engine.source.http;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

import org.spdl4j.engine.source.SampleAllocator;

/**
 * Collects an HTTP body straight into a buffer from a {@link SampleAllocator}: one copy, from the client's network
 * buffers into ours. With a {@code Content-Length} the buffer is allocated at the exact size; without one it starts at
 * 64 KiB and doubles (allocate, copy, release the old one).
 *
 * <p><b>Ownership:</b> exactly one of completion (the buffer passes to the caller), error or {@link #abort()} (the
 * buffer is released) happens, guarded by one flag, whichever thread calls. <b>Threading:</b> the HTTP client calls
 * {@code onNext} serially (reactive-streams rule); {@link #abort()} may race with it and wins or loses cleanly.
 */
final class AllocatorBodySubscriber implements HttpResponse.BodySubscriber<ByteBuffer> {
    private static final int UNKNOWN_LENGTH_START = 64 * 1024;
    private final SampleAllocator allocator;
    private final long declaredLength;
    private final int maxBytes;
    private final CompletableFuture<ByteBuffer> body = new CompletableFuture<>();
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile Flow.Subscription subscription;
    private ByteBuffer buffer;

    AllocatorBodySubscriber(SampleAllocator allocator, long declaredLength, int maxBytes) {
        this.allocator = allocator;
        this.declaredLength = declaredLength;
        this.maxBytes = maxBytes;
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
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> chunks) {
        if (finished.get()) {
            return;
        }
        synchronized (this) { // serial calls; the lock only orders against abort()'s release (uncontended)
            if (finished.get()) {
                return;
            }
            for (ByteBuffer c : chunks) {
                if (!ensure(c.remaining())) {
                    return;
                }
                buffer.put(c);
            }
        }
    }

    private boolean ensure(int more) {
        if (buffer == null) {
            int first = declaredLength >= 0 ? (int) declaredLength : Math.min(maxBytes, UNKNOWN_LENGTH_START);
            buffer = allocateOrFail(first);
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
        ByteBuffer bigger = allocateOrFail(size);
        if (bigger == null) {
            return false;
        }
        bigger.put(buffer.flip());
        allocator.release(buffer);
        buffer = bigger;
        return true;
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
        synchronized (this) {
            if (!finished.compareAndSet(false, true)) {
                return;
            }
            if (buffer == null) {
                buffer = allocator.allocate(0);
            }
            body.complete(buffer.flip());
            buffer = null; // ownership passed on
        }
    }

    /** Stops collecting (the attempt timed out): the buffer goes back and the body fails. */
    void abort() {
        fail(new IOException("attempt aborted"));
    }

    private void fail(Throwable t) {
        synchronized (this) {
            if (!finished.compareAndSet(false, true)) {
                return;
            }
            if (buffer != null) {
                allocator.release(buffer);
                buffer = null;
            }
        }
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
        body.completeExceptionally(t);
    }
}
