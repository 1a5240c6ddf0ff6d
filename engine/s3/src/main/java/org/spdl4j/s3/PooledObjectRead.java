package org.spdl4j.s3;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.SampleField;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * One whole-object GET whose body lands in one buffer of the loader's allocator: the object's bytes are copied once,
 * from the network buffers into the slab. The SDK calls {@link #prepare} once per attempt (a retry starts over in a
 * new buffer; the old one goes back).
 *
 * <p>The buffer is allocated off the SDK's event loop (a pool may wait for a free slab) and the body is requested only
 * once it is there, so a full pool holds the connection back rather than an event loop thread.
 *
 * <p><b>Cancel:</b> {@link #result()} cancelled stops every write into the buffer and gives it back before the cancel
 * returns (writes and the give-back hold this object's lock), as {@link org.spdl4j.loader.ObjectStore} requires.
 * <b>Threading:</b> SDK callbacks on its threads, allocation on the store's executor, cancel on any thread.
 */
final class PooledObjectRead implements AsyncResponseTransformer<GetObjectResponse, Sample> {
    private final URI uri;
    private final String field;
    private final SampleAllocator bytes;
    private final Executor allocating;
    private final long maxBytes;
    private final CompletableFuture<Sample> result = new CompletableFuture<>();

    // guarded by this
    private Attempt current;
    private boolean cancelled;
    private Sample made;

    PooledObjectRead(URI uri, SampleAllocator bytes, Executor allocating, long maxBytes) {
        this.uri = uri;
        this.field = extension(uri.getPath());
        this.bytes = bytes;
        this.allocating = allocating;
        this.maxBytes = maxBytes;
        result.whenComplete((s, e) -> {
            if (result.isCancelled()) {
                cancel();
            }
        });
    }

    /** {@return what the loader gets: completed once, by {@link #deliver} or {@link #fail}, or cancelled} */
    CompletableFuture<Sample> result() {
        return result;
    }

    /** Hands the SDK's result to the loader; one the loader no longer wants was already given back. */
    void deliver(Sample sample) {
        result.complete(sample); // false only when cancelled: cancel() closed the sample under the lock
    }

    /** Fails the read for good. */
    void fail(Throwable error) {
        result.completeExceptionally(error);
    }

    private synchronized void cancel() {
        cancelled = true;
        if (current != null) {
            current.drop();
        }
        if (made != null) {
            made.close();
            made = null;
        }
    }

    @Override
    public CompletableFuture<Sample> prepare() {
        Attempt a = new Attempt();
        synchronized (this) {
            if (current != null) {
                current.drop(); // a retry: the previous attempt's buffer goes back
            }
            current = a;
            if (cancelled) {
                a.drop();
            }
        }
        return a.done;
    }

    private synchronized Attempt current() {
        return current;
    }

    @Override
    public void onResponse(GetObjectResponse response) {
        current().onResponse(response);
    }

    @Override
    public void onStream(SdkPublisher<ByteBuffer> publisher) {
        publisher.subscribe(current().subscriber());
    }

    @Override
    public void exceptionOccurred(Throwable error) {
        Attempt a = current();
        if (a != null) {
            a.fail(error);
        }
    }

    @Override
    public String name() {
        return "spdl4j-pooled-object";
    }

    private static String extension(String path) {
        int slash = path.lastIndexOf('/');
        int dot = path.lastIndexOf('.');
        return dot > slash && dot < path.length() - 1 ? path.substring(dot + 1) : "bytes";
    }

    /** One attempt of the GET: its buffer and the body's progress into it. */
    private final class Attempt {
        final CompletableFuture<Sample> done = new CompletableFuture<>();
        private final CompletableFuture<ByteBuffer> allocated = new CompletableFuture<>();
        // guarded by PooledObjectRead.this
        private ByteBuffer buffer;
        private boolean dropped;
        private long expected;

        void onResponse(GetObjectResponse response) {
            Long length = response.contentLength();
            if (length == null || length < 0) {
                fail(new IllegalStateException(uri + ": the store sent no Content-Length"));
                return;
            }
            if (length > maxBytes) {
                fail(new S3StoreException(uri + " is " + length + " bytes, more than the " + maxBytes + " a sample "
                    + "may have (S3ObjectStoreBuilder.maxObjectBytes; store larger media as tar shards or raise it)",
                    0, null));
                return;
            }
            expected = length;
            int size = (int) (long) length;
            CompletableFuture.runAsync(() -> {
                ByteBuffer b;
                try {
                    b = bytes.allocate(size);
                } catch (RuntimeException e) {
                    allocated.completeExceptionally(e);
                    return;
                }
                synchronized (PooledObjectRead.this) {
                    if (dropped) {
                        bytes.release(b);
                        allocated.completeExceptionally(new java.util.concurrent.CancellationException());
                        return;
                    }
                    buffer = b;
                }
                allocated.complete(b);
            }, allocating);
        }

        Subscriber<ByteBuffer> subscriber() {
            return new Subscriber<>() {
                @Override
                public void onSubscribe(Subscription s) {
                    allocated.whenComplete((b, e) -> {
                        if (e != null) {
                            s.cancel();
                            fail(e);
                        } else {
                            s.request(Long.MAX_VALUE);
                        }
                    });
                }

                @Override
                public void onNext(ByteBuffer chunk) {
                    synchronized (PooledObjectRead.this) {
                        if (dropped || buffer == null) {
                            return;
                        }
                        if (chunk.remaining() > buffer.remaining()) {
                            dropLocked();
                            done.completeExceptionally(new IllegalStateException(uri + ": the body is longer than "
                                + "its Content-Length " + expected));
                            return;
                        }
                        buffer.put(chunk);
                    }
                }

                @Override
                public void onError(Throwable t) {
                    fail(t);
                }

                @Override
                public void onComplete() {
                    Sample sample;
                    synchronized (PooledObjectRead.this) {
                        if (dropped || buffer == null) {
                            return;
                        }
                        if (buffer.position() != expected) {
                            long got = buffer.position();
                            dropLocked();
                            done.completeExceptionally(new IllegalStateException(uri + ": the body ended after "
                                + got + " of " + expected + " bytes"));
                            return;
                        }
                        buffer.flip();
                        sample = new Sample(uri.toString(), Sample.NO_LABEL, uri.toString(),
                            List.of(new SampleField(field, buffer)), bytes);
                        buffer = null; // the sample owns it now
                        made = sample;
                    }
                    done.complete(sample);
                }
            };
        }

        void fail(Throwable t) {
            synchronized (PooledObjectRead.this) {
                dropLocked();
            }
            allocated.completeExceptionally(t); // a body subscribed later cancels at once
            done.completeExceptionally(t);
        }

        /** Called under the read's lock: no write follows; the buffer goes back. */
        void drop() {
            dropLocked();
        }

        private void dropLocked() {
            dropped = true;
            if (buffer != null) {
                ByteBuffer b = buffer;
                buffer = null;
                bytes.release(b);
            }
        }
    }
}
