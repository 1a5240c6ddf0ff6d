package org.spdl4j.offheap.batch;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jctools.queues.MpscArrayQueue;
import org.spdl4j.offheap.Backoff;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.OffHeapConfiguration;
import org.spdl4j.offheap.PoolExhaustedException;
import org.spdl4j.offheap.Timeouts;
import org.spdl4j.offheap.tensor.BatchDescriptor;

/**
 * Zero-copy batch assembly: hands out, in input order, each item's {@link Slot} (its batch and place in it) before
 * the item is decoded; producers write samples straight into their slots, concurrently; a batch goes to the
 * {@link BatchConsumer} when its last slot completes (see {@link Batch} for counting and failed samples).
 *
 * <p><b>Threads:</b> {@link #claim()}, {@link #flush()} and {@link #close()} belong to <em>one</em> claiming thread
 * at a time (the order of its claims is the input order). Slots are completed from any threads. Batches are closed
 * from any thread.
 *
 * <p><b>Memory and back-pressure:</b> {@code batchesInFlight} batch objects (each with its slots) are preallocated;
 * each open batch holds one lease of {@link BatchDescriptor#batchBytes()} from the pool. {@link #claim()} waits,
 * bounded by the acquire timeout, for a free batch object and a lease, so memory in flight is bounded by
 * configuration. In steady state nothing is allocated per item or per batch.
 *
 * <p><b>End of stream:</b> {@link #flush()} seals the partly claimed batch: it is published when its claimed slots
 * complete, or dropped (lease released, never published) with {@code dropLast}. A batch whose samples all failed is
 * never published either.
 */
public final class BatchAssembler implements AutoCloseable {
    private final BufferPool pool;
    private final BatchDescriptor descriptor;
    private final BatchConsumer consumer;
    private final Consumer<Batch> onDropped;
    private final boolean dropLast;
    private final long timeoutNanos;
    private final long maxParkNanos = TimeUnit.MICROSECONDS.toNanos(OffHeapConfiguration.MAX_PARK_MICROS);
    private final MpscArrayQueue<Batch> free;
    private final int batchesInFlight;
    private final AtomicLong published = new AtomicLong(); // once per batch, not per item
    private final AtomicLong discarded = new AtomicLong();
    private final AtomicLong recycled = new AtomicLong(); // batches closed (published or discarded), once per batch
    private Batch current;
    private long nextSequence;
    private boolean closed;

    private BatchAssembler(Builder b) {
        this.pool = b.pool;
        this.descriptor = b.descriptor;
        this.consumer = b.consumer; // null: batches are returned by Slot.complete/fail and flush to their caller
        this.onDropped = b.onDropped;
        this.dropLast = b.dropLast;
        this.timeoutNanos = Timeouts.nanos(b.acquireTimeout);
        this.batchesInFlight = b.batchesInFlight;
        this.free = new MpscArrayQueue<>(Math.max(2, b.batchesInFlight));
        if (descriptor.batchBytes() > pool.maxSlabBytes()) {
            throw new IllegalArgumentException(descriptor + " needs " + descriptor.batchBytes() + " B per batch; pool '"
                    + pool.name() + "' leases at most " + pool.maxSlabBytes() + " B");
        }
    }

    /**
     * Starts describing an assembler.
     *
     * @param pool       where batch leases come from
     * @param descriptor the batch layout
     * @return a builder
     */
    public static Builder builder(BufferPool pool, BatchDescriptor descriptor) {
        return new Builder(pool, descriptor);
    }

    private void preallocate() {
        for (int i = 0; i < batchesInFlight; i++) {
            free.offer(new Batch(this, descriptor, i)); // ordinals 0..batchesInFlight-1, one per object for life
        }
    }

    /**
     * Claims the next item's slot: its place in the current batch, opened (lease acquired) when needed. Claiming
     * the last slot of a batch seals it.
     *
     * @return the slot; hand it to the producer that will fill it
     * @throws PoolExhaustedException when no batch object or lease became free within the timeout, or the wait
     *                                was interrupted (its cause is then an {@link InterruptedException}, and the
     *                                thread's interrupt flag stays set)
     * @throws IllegalStateException  when the assembler is closed
     */
    public Slot claim() {
        if (closed) {
            throw new IllegalStateException("batch assembler for " + descriptor + " is closed");
        }
        Batch b = current;
        if (b == null) {
            b = openBatch();
            current = b;
        }
        final Slot slot = b.claimNext();
        nextSequence++;
        if (b.isFull()) {
            current = null;
            b.seal(false);
        }
        return slot;
    }

    private Batch openBatch() {
        final long start = System.nanoTime();
        Batch b = free.relaxedPoll(); // single consumer: the claiming thread
        int attempt = 0;
        while (b == null) {
            if (System.nanoTime() - start >= timeoutNanos || Thread.currentThread().isInterrupted()) {
                throw noFreeBatch(start);
            }
            Backoff.idle(attempt++, maxParkNanos);
            b = free.relaxedPoll();
        }
        final Lease lease;
        try {
            // the nanosecond form: no Duration per batch on the claiming thread
            lease = pool.acquire(descriptor.batchBytes(), Math.max(0, timeoutNanos - (System.nanoTime() - start)));
        } catch (RuntimeException | Error e) { // an Error too: a batch object lost here would shrink the assembler
            free.offer(b);
            throw e;
        }
        b.open(lease, nextSequence);
        return b;
    }

    /**
     * Why no batch object came free: every one is either still filling (producers have not completed or failed all
     * its claimed slots) or published and not yet closed; the counts tell the caller which side holds them up.
     * Reads the interrupt flag without clearing it.
     */
    private PoolExhaustedException noFreeBatch(long start) {
        final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        // The free list was empty, so all batchesInFlight objects are out. Closed batches = recycled; of those,
        // discarded ones were never published. The counters move independently: clamp a momentary skew.
        final long unclosed = Math.clamp(published.get() - (recycled.get() - discarded.get()), 0, batchesInFlight);
        final long filling = batchesInFlight - unclosed;
        final String where = filling + " still filling, " + unclosed + " published and not yet closed";
        final StringBuilder advice = new StringBuilder();
        if (unclosed > 0) {
            advice.append("consumers must close() each batch; ");
        }
        if (filling > 0) {
            advice.append("producers must complete() or fail() every claimed slot; ");
        }
        advice.append("raise batchesInFlight if this much work in flight is legitimate");
        if (Thread.currentThread().isInterrupted()) {
            return new PoolExhaustedException("batch assembler for " + descriptor + ": interrupted after waiting "
                    + waitedMs + " ms for a free batch (all " + batchesInFlight + " batches in flight: " + where + ")",
                    new InterruptedException("claim() interrupted"));
        }
        return new PoolExhaustedException("batch assembler for " + descriptor + ": all " + batchesInFlight
                + " batches in flight after waiting " + waitedMs + " ms (" + where + ", published " + published.get()
                + " in all); " + advice, null);
    }

    /**
     * End of stream: seals the partly claimed batch (published when its slots complete, or dropped with
     * {@code dropLast}). Claims may continue afterwards, starting a new batch.
     *
     * @return the partial batch when sealing it published it to this caller (its slots were all complete already
     *         and the assembler has no consumer), else {@code null}
     */
    public Batch flush() {
        final Batch b = current;
        if (b != null) {
            current = null;
            return b.seal(dropLast);
        }
        return null;
    }

    /**
     * Flushes and refuses further claims; idempotent. Batches still being filled are published as they complete.
     * The assembler is closed also when the flush throws (the consumer threw on the last batch, which is then its
     * consumer's: see {@link BatchConsumer#onBatch}), and that exception is rethrown; a later close does nothing.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true; // first: a flush that throws must not leave claims open (each would open a batch and a lease)
        final Batch last = flush();
        if (last != null) {
            last.close(); // nobody asked for it: a caller that wants the last batch calls flush() first
        }
    }

    /** {@return batches handed to the consumer so far} */
    public long publishedBatches() {
        return published.get();
    }

    /** {@return batches dropped so far: a flushed partial batch with dropLast, or one whose samples all failed} */
    public long discardedBatches() {
        return discarded.get();
    }

    /** {@return the number of batch objects: each batch's {@link Batch#ordinal()} is below it} */
    public int batchesInFlight() {
        return batchesInFlight;
    }

    /** {@return the sequence number the next claim gets} */
    public long nextSequence() {
        return nextSequence;
    }

    BatchConsumer consumer() {
        return consumer;
    }

    /** {@return who is told of a batch dropped rather than published, or {@code null}} */
    Consumer<Batch> onDropped() {
        return onDropped;
    }

    void onPublished() {
        published.incrementAndGet();
    }

    void onDiscarded() {
        discarded.incrementAndGet();
    }

    /** Any thread (Batch.close): the free list is multi-producer. */
    void recycle(Batch b) {
        if (!free.offer(b)) {
            throw new IllegalStateException("batch free list full: a batch was recycled twice");
        }
        recycled.incrementAndGet(); // read only to explain a claim that found no free batch
    }

    /** Collects a {@link BatchAssembler}. Not thread-safe. */
    public static final class Builder {
        private final BufferPool pool;
        private final BatchDescriptor descriptor;
        private BatchConsumer consumer;
        private Consumer<Batch> onDropped;
        private boolean dropLast;
        private int batchesInFlight = 4;
        private Duration acquireTimeout;

        private Builder(BufferPool pool, BatchDescriptor descriptor) {
            this.pool = Objects.requireNonNull(pool, "pool");
            this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
            this.acquireTimeout = pool.config().acquireTimeout();
        }

        /**
         * Sets who receives completed batches. Without one, the batch goes back to whoever completes its last
         * slot, as the return value of {@link Slot#complete()}, {@link Slot#fail(Throwable)} or {@link #flush()}: the
         * form a pipeline stage uses, returning the batch as its output (or {@code null}, dropping the item, when the
         * completion did not finish a batch).
         *
         * @param consumer the consumer
         * @return this builder
         */
        public Builder consumer(BatchConsumer consumer) {
            this.consumer = consumer;
            return this;
        }

        /**
         * Sets who is told of a batch that is neither published nor returned but closed and dropped: every claimed
         * sample of it failed, or {@link #dropLast} dropped it as a partial batch at a flush. The listener runs just
         * before the close, on the thread that completed its last slot (or flushed it), and may read its samples
         * ({@link Batch#size()}, {@link Batch#slotIndex(int)}; {@link Batch#failedCount()},
         * {@link Batch#failedSequence(int)}, {@link Batch#failure(int)}) to account for them. It must not close the
         * batch or keep it; what it throws is thrown to that thread after the batch is closed.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder onDropped(Consumer<Batch> listener) {
            this.onDropped = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Drops a partial batch at end of stream instead of publishing it (default false).
         *
         * @param dropLast whether to drop it
         * @return this builder
         */
        public Builder dropLast(boolean dropLast) {
            this.dropLast = dropLast;
            return this;
        }

        /**
         * Sets how many batches may be open or unclosed at once (default 4): the bound on memory in flight.
         *
         * @param n at least 1
         * @return this builder
         */
        public Builder batchesInFlight(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("batchesInFlight must be >= 1, got " + n);
            }
            this.batchesInFlight = n;
            return this;
        }

        /**
         * Sets how long a claim waits for a free batch and lease (default: the pool's acquire timeout).
         *
         * @param timeout the bound
         * @return this builder
         */
        public Builder acquireTimeout(Duration timeout) {
            this.acquireTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Builds the assembler and preallocates its batches.
         *
         * @return the assembler
         * @throws IllegalArgumentException when a batch does not fit in the pool's largest slab
         */
        public BatchAssembler build() {
            final BatchAssembler assembler = new BatchAssembler(this);
            assembler.preallocate();
            return assembler;
        }
    }
}
