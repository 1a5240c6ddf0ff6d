package org.spdl4j.offheap.batch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One sample's place in a {@link Batch}: {@code sampleBytes} at {@link #address()} inside the batch's lease, for a
 * producer to fill and then {@link #complete()} or {@link #fail(Throwable)} exactly once.
 *
 * <p><b>Thread safety:</b> one producer per slot; any thread. Hand the slot from the claiming thread to its
 * producer through something that publishes safely (a ring, a queue, an executor). Completing is a volatile CAS
 * followed by the batch's atomic count-down, so the producer's writes to the sample happen-before the batch is
 * published. <b>Allocation:</b> none; slots are preallocated with their batch and reused with it.
 */
public final class Slot {
    private static final int PENDING = 0;
    private static final int DONE = 1;
    private static final int FAILED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Slot.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Batch batch;
    private final int index;
    private final UnsafeBuffer view = new UnsafeBuffer();
    private long address;
    private Throwable cause;
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    Slot(Batch batch, int index) {
        this.batch = batch;
        this.index = index;
    }

    /** Called by the claiming thread when the batch opens, before any producer sees the slot. */
    void reset(long sampleAddress, int sampleBytes) {
        address = sampleAddress;
        view.wrap(sampleAddress, sampleBytes);
        cause = null;
        STATE.setRelease(this, PENDING); // ordered after the plain fields above
    }

    /** {@return the batch this slot belongs to} */
    public Batch batch() {
        return batch;
    }

    /** {@return this slot's index in its batch, before compaction} */
    public int index() {
        return index;
    }

    /** {@return the input sequence number of the sample (0 for the stream's first item)} */
    public long sequence() {
        return batch.firstSequence() + index;
    }

    /** {@return the address of the sample's first byte} */
    public long address() {
        return address;
    }

    /** {@return bytes of the sample} */
    public int length() {
        return batch.descriptor().sampleBytes();
    }

    /** {@return a preallocated Agrona view of exactly the sample's bytes; do not re-wrap it} */
    public UnsafeBuffer buffer() {
        return view;
    }

    /**
     * Marks the sample written. The last completion of a sealed batch publishes it, on this thread: to the
     * assembler's consumer, or, when the assembler has none, to this caller as the return value.
     *
     * @return the batch this completion published when the assembler has no consumer (the caller then owns it and
     *         must close it), else {@code null}
     * @throws IllegalStateException when the slot was already completed or failed
     */
    public Batch complete() {
        if (!STATE.compareAndSet(this, PENDING, DONE)) { // volatile CAS: at most one completion per slot
            throw new IllegalStateException("slot " + index + " (sequence " + sequence() + ") completed twice");
        }
        return batch.countDown(1);
    }

    /**
     * Marks the sample failed: the batch will not hold it, whatever its bytes are.
     *
     * @param failure why, kept for {@link Batch#failure(int)}
     * @return as {@link #complete()}: the batch this call published when the assembler has no consumer, else null
     * @throws IllegalStateException when the slot was already completed or failed
     */
    public Batch fail(Throwable failure) {
        if (!STATE.compareAndSet(this, PENDING, FAILED)) {
            throw new IllegalStateException("slot " + index + " (sequence " + sequence() + ") completed twice",
                    failure);
        }
        cause = failure; // plain: published by countDown's volatile RMW
        return batch.countDown(1);
    }

    boolean succeeded() {
        return (int) STATE.getAcquire(this) == DONE;
    }

    Throwable cause() {
        return cause;
    }
}
