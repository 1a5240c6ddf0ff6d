package org.spdl4j.cuda;

import java.util.Objects;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.Tensor;

/**
 * A batch in host memory handed to {@link HostToDeviceTransfer}: where its bytes are, what they hold, and how to
 * give the memory back once the device has its copy.
 *
 * <p><b>Ownership:</b> the memory at {@link #address()} must stay valid and unchanged until {@link #release()} is
 * called. Whoever holds the batch calls {@code release()} exactly once; {@link HostToDeviceTransfer#apply} takes
 * that duty over (it releases the batch when the copy's event has completed, or when the copy fails).
 *
 * <p><b>From off-heap, without copying:</b> {@link #of(Batch)} takes an assembled batch (its
 * {@link Batch#tensor()}; release closes the batch, so its lease goes back to the pool exactly when the copy is
 * done), {@link #of(Tensor, Lease)} any contiguous tensor over a lease (release drops one count of the lease). For
 * the copy to be asynchronous DMA, the pool's allocator must be {@link Device#hostAllocator()} (pinned on a GPU);
 * from other memory the driver stages the copy and {@code apply} blocks for it. <b>Allocation:</b> each adapter
 * allocates a few small objects per batch (the view, the spec, the release action), never per sample.
 */
public interface HostBatch {
    /** {@return the native address of the first byte} */
    long address();

    /** {@return the element type and shape; the batch spans {@code spec().byteSize()} bytes from the address} */
    TensorSpec spec();

    /**
     * Gives the memory back to its owner (for example returns a lease to its pool). Called once; may be called from
     * another thread than the one that created the batch (the transfer's completion thread), so implementations
     * must be safe to call from any thread.
     */
    void release();

    /**
     * An assembled off-heap batch as a host batch: its held samples, {@code [size(), ...sample shape]}.
     *
     * @param batch a published batch; the caller's ownership passes to the returned host batch, whose
     *              {@link #release()} closes it (lease back to the pool, batch object back to its assembler)
     * @return the host batch
     * @throws IllegalArgumentException when the batch's tensor cannot be described (see {@link TensorSpec#of(Tensor)})
     */
    static HostBatch of(Batch batch) {
        Tensor tensor = batch.tensor();
        return of(tensor.address(), TensorSpec.of(tensor), batch::close);
    }

    /**
     * A tensor over a pool lease as a host batch.
     *
     * @param tensor a contiguous tensor over {@code lease}
     * @param lease  the tensor's lease; the caller passes one count of it to the returned host batch, whose
     *               {@link #release()} calls {@link Lease#release()} once
     * @return the host batch
     * @throws IllegalArgumentException when the tensor lies in another lease or is not contiguous
     */
    static HostBatch of(Tensor tensor, Lease lease) {
        if (tensor.lease() != lease) {
            throw new IllegalArgumentException(tensor + " is not over " + lease + "; pass the lease the tensor views");
        }
        return of(tensor.address(), TensorSpec.of(tensor), lease::release);
    }

    /**
     * A batch over memory someone else owns.
     *
     * @param address   native address of the first byte
     * @param spec      element type and shape
     * @param onRelease run once by {@link #release()}
     * @return the batch
     */
    static HostBatch of(long address, TensorSpec spec, Runnable onRelease) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(onRelease, "onRelease");
        if (address == 0) {
            throw new IllegalArgumentException("null address for a host batch of " + spec);
        }
        return new HostBatch() {
            @Override
            public long address() {
                return address;
            }

            @Override
            public TensorSpec spec() {
                return spec;
            }

            @Override
            public void release() {
                onRelease.run();
            }

            @Override
            public String toString() {
                return "HostBatch[" + spec + " @0x" + Long.toHexString(address) + "]";
            }
        };
    }
}
