package org.spdl4j.offheap.batch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.Tensor;

/**
 * A batch being assembled, then published: one lease laid out by a {@link BatchDescriptor}, with {@link Slot}s
 * filled concurrently by producers.
 *
 * <p><b>What a published batch holds (decision):</b> only its surviving samples, in input order, <em>compacted</em>
 * to the front so {@link #tensor()} is one dense {@code [size(), ...sample]} tensor a training step can use as is.
 * When no sample failed, nothing is copied (zero copy). When some failed, each survivor behind the first hole is
 * moved down one slot (one memcpy per such survivor, at publication, once every producer is done): failures are
 * rare, and the alternative, a mask, would push holes onto every consumer. {@link #sequence(int)} maps a held
 * sample back to its input sequence number; {@link #failedSequence(int)} and {@link #failure(int)} list the rest.
 *
 * <p><b>Completion counting (lock-free):</b> {@code pending} starts at {@code batchSize + 1}. Each slot completion
 * subtracts 1; sealing the batch (full, or flushed at end of stream) subtracts the unclaimed slots plus the extra 1.
 * The thread whose {@code getAndAdd} takes it to zero publishes; every other subtraction happened before it in the
 * variable's modification order, so that thread sees every producer's bytes and slot states.
 *
 * <p><b>Ownership:</b> the {@link BatchConsumer} owns a published batch and must {@link #close()} it, which releases
 * the lease (retain the lease first to keep the memory longer) and returns the batch object to its assembler.
 * Reading a published batch is safe from any thread the consumer hands it to safely.
 *
 * <p><b>Reuse (as with pooled buffers elsewhere):</b> a closed batch object goes back to its assembler and is handed
 * out again for a later batch, so no new object is allocated per batch. A reference kept past {@link #close()} is
 * therefore stale: a second close is caught ({@link IllegalStateException}) only until the object is reused; after
 * that it would close the later batch. Drop the reference when you close the batch (try-with-resources does).
 */
public final class Batch implements AutoCloseable {
    private static final VarHandle PENDING;
    private static final VarHandle STATE;

    static {
        try {
            PENDING = MethodHandles.lookup().findVarHandle(Batch.class, "pending", int.class);
            STATE = MethodHandles.lookup().findVarHandle(Batch.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final BatchAssembler assembler;
    private final BatchDescriptor descriptor;
    private final int ordinal;
    private final Slot[] slots;
    private final int[] heldSlots;
    private final int[] failedSlots;
    private Lease lease;
    private long firstSequence;
    /** Written by the claiming thread only; read by the publishing thread after the pending count hits zero. */
    private int claimed;
    private boolean dropped;
    private int held;
    private int failed;
    @SuppressWarnings("unused") // accessed through PENDING
    private volatile int pending;
    /**
     * {@code use << 1 | closed}: which use of this object (one per batch it carries) and whether that batch is
     * closed, in one word, so a close on behalf of one batch can never close the object's next batch.
     */
    @SuppressWarnings("unused") // accessed through STATE
    private volatile long state = 1; // use 0, closed: not yet opened

    Batch(BatchAssembler assembler, BatchDescriptor descriptor, int ordinal) {
        this.assembler = assembler;
        this.descriptor = descriptor;
        this.ordinal = ordinal;
        this.slots = new Slot[descriptor.batchSize()];
        this.heldSlots = new int[slots.length];
        this.failedSlots = new int[slots.length];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot(this, i);
        }
    }

    /** Claiming thread: takes a fresh lease and resets every slot. */
    void open(Lease batchLease, long first) {
        lease = batchLease;
        firstSequence = first;
        claimed = 0;
        dropped = false;
        held = 0;
        failed = 0;
        final long base = batchLease.address();
        for (int i = 0; i < slots.length; i++) {
            slots[i].reset(base + descriptor.sampleOffset(i), descriptor.sampleBytes());
        }
        STATE.setRelease(this, (((long) STATE.getVolatile(this) >>> 1) + 1) << 1); // the next use, open
        PENDING.setRelease(this, slots.length + 1); // +1: the seal; no count-down can reach zero before it
    }

    /** Claiming thread: hands out the next slot. */
    Slot claimNext() {
        return slots[claimed++];
    }

    boolean isFull() {
        return claimed == slots.length;
    }

    int claimedCount() {
        return claimed;
    }

    /**
     * Claiming thread: no more claims; publish (or drop) once the claimed slots complete.
     *
     * @return this batch when sealing published it to the caller (every claimed slot was already complete and the
     *         assembler has no consumer), else {@code null}
     */
    Batch seal(boolean drop) {
        dropped = drop; // plain: published by the volatile getAndAdd below
        return countDown(slots.length - claimed + 1);
    }

    /** {@return this batch when this count-down published it to the caller (no consumer set), else null} */
    Batch countDown(int n) {
        if ((int) PENDING.getAndAdd(this, -n) == n) { // volatile RMW: the last one sees all earlier writes
            return finish();
        }
        return null;
    }

    private Batch finish() {
        final UnsafeBuffer bytes = lease.buffer();
        final int sampleBytes = descriptor.sampleBytes();
        int w = 0;
        for (int i = 0; i < claimed; i++) {
            if (slots[i].succeeded()) {
                if (w != i) { // compaction: only behind a failed sample; slots are disjoint, memcpy is safe
                    bytes.putBytes((int) descriptor.sampleOffset(w), bytes, (int) descriptor.sampleOffset(i),
                            sampleBytes);
                }
                heldSlots[w++] = i;
            } else {
                failedSlots[failed++] = i;
            }
        }
        held = w;
        if (dropped || held == 0) {
            final Consumer<Batch> onDropped = assembler.onDropped();
            try {
                if (onDropped != null) {
                    onDropped.accept(this); // the listener accounts for its samples before the close
                }
            } finally {
                assembler.onDiscarded();
                close();
            }
            return null;
        }
        assembler.onPublished();
        final BatchConsumer consumer = assembler.consumer();
        if (consumer == null) {
            return this; // handed to the completing caller, which now owns it (a pipeline stage returns it)
        }
        // Ownership passes to the consumer here, also when it throws: it may have handed the batch on first, and a
        // close on its behalf would free memory the new owner reads (see BatchConsumer.onBatch).
        consumer.onBatch(this);
        return null;
    }

    /**
     * This batch object's number among its assembler's, fixed for the object's life: the same while the object is
     * reused for later batches. It keys per-slot side tables: each object holds at most one open or unclosed batch
     * at a time, so {@code ordinal() * batchSize + slotIndex} names one sample for as long as its batch lives,
     * whatever order batches complete and are closed in. (A sequence number modulo a ring cannot: a batch still
     * filling may be overtaken by later ones, and the batch claimed {@code batchesInFlight} after it would share its
     * ring entries.)
     *
     * @return from 0 to {@link BatchAssembler#batchesInFlight()} - 1
     */
    public int ordinal() {
        return ordinal;
    }

    /**
     * {@return the index, in this batch's slots (before compaction), of held sample {@code i}: the slot it was
     * written into}
     *
     * @param i from 0 to {@code size() - 1}
     */
    public int slotIndex(int i) {
        return heldSlots[checkIndex(i, held)];
    }

    /** {@return samples held: the survivors} */
    public int size() {
        return held;
    }

    /**
     * Input sequence number of a held sample.
     *
     * @param i from 0 to {@code size() - 1}, in input order
     * @return the sequence number given when its slot was claimed
     */
    public long sequence(int i) {
        return firstSequence + heldSlots[checkIndex(i, held)];
    }

    /** {@return samples that failed} */
    public int failedCount() {
        return failed;
    }

    /**
     * Input sequence number of a failed sample.
     *
     * @param k from 0 to {@code failedCount() - 1}
     * @return its sequence number
     */
    public long failedSequence(int k) {
        return firstSequence + failedSlots[checkIndex(k, failed)];
    }

    /**
     * Why a sample failed.
     *
     * @param k from 0 to {@code failedCount() - 1}
     * @return the cause given to {@link Slot#fail(Throwable)}
     */
    public Throwable failure(int k) {
        return slots[failedSlots[checkIndex(k, failed)]].cause();
    }

    /** {@return the sequence number of the batch's first slot} */
    public long firstSequence() {
        return firstSequence;
    }

    /** {@return the batch's memory; the batch owns one count of it until {@link #close()}} */
    public Lease lease() {
        return lease;
    }

    /** {@return the layout of the batch} */
    public BatchDescriptor descriptor() {
        return descriptor;
    }

    /**
     * Address of a held sample.
     *
     * @param i from 0 to {@code size() - 1}
     * @return the address of its first byte
     */
    public long sampleAddress(int i) {
        return lease.address() + descriptor.sampleOffset(checkIndex(i, held));
    }

    /** {@return the held samples as one contiguous tensor {@code [size(), ...sample shape]}; allocates the view} */
    public Tensor tensor() {
        return descriptor.batchTensor(lease, held);
    }

    /**
     * Releases the batch's lease and returns the batch to its assembler.
     *
     * @throws IllegalStateException when the batch was already closed
     */
    @Override
    public void close() {
        final long s = (long) STATE.getVolatile(this);
        if ((s & 1) != 0 || !STATE.compareAndSet(this, s, s | 1)) {
            throw new IllegalStateException("batch at sequence " + firstSequence + " closed twice");
        }
        releaseAndRecycle();
    }

    private void releaseAndRecycle() {
        final Lease l = lease;
        lease = null;
        try {
            l.release();
        } finally {
            assembler.recycle(this); // a release that throws (the lease released by hand) must not lose the object
        }
    }

    private static int checkIndex(int i, int size) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("index " + i + " outside 0.." + (size - 1));
        }
        return i;
    }
}
