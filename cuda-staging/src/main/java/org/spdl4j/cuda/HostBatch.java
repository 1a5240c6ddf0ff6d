package org.spdl4j.cuda;

import java.util.Objects;

/**
 * A batch in host memory handed to {@link HostToDeviceTransfer}: where its bytes are, what they hold, and how to
 * give the memory back once the device has its copy.
 *
 * <p><b>Ownership:</b> the memory at {@link #address()} must stay valid and unchanged until {@link #release()} is
 * called. Whoever holds the batch calls {@code release()} exactly once; {@link HostToDeviceTransfer#apply} takes
 * that duty over (it releases the batch when the copy's event has completed, or when the copy fails).
 * Implementations adapt a pool lease (off-heap's {@code Lease}) without copying.
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
