package org.spdl4j.cuda;

/**
 * A batch on the device, as {@link HostToDeviceTransfer} returns it: device memory, element type and shape, and the
 * event that completes when the copy into that memory has completed.
 *
 * <p>To consume it, either block until {@link #awaitReady()} returns, or keep the CPU free and make your own stream
 * wait on the device: {@code myStream.waitFor(batch.readyEvent())}, then queue kernels on {@code myStream}.
 *
 * <p><b>Ownership:</b> one owner (the consumer). {@link #close()} returns the memory to the device pool and the
 * event to the transfer; call it only after the work that reads the batch has completed (for example after
 * {@code myStream.synchronize()}), since the next copy may overwrite the memory at once. Not thread-safe.
 */
public final class DeviceBatch implements AutoCloseable {
    private final DeviceBuffer buffer;
    private final TensorSpec spec;
    private final DeviceEvent ready;
    private final EventPool events;
    private boolean closed;

    DeviceBatch(DeviceBuffer buffer, TensorSpec spec, DeviceEvent ready, EventPool events) {
        this.buffer = buffer;
        this.spec = spec;
        this.ready = ready;
        this.events = events;
    }

    /** {@return the device address of the first element (a host address on {@link HostDevice})} */
    public long devicePointer() {
        return buffer.address();
    }

    /** {@return the element type and shape} */
    public TensorSpec spec() {
        return spec;
    }

    /** {@return the device memory (owned by this batch: do not close it separately)} */
    public DeviceBuffer buffer() {
        return buffer;
    }

    /** {@return the event that completes when the data is on the device (owned by this batch)} */
    public DeviceEvent readyEvent() {
        return ready;
    }

    /** {@return true when the copy has completed; does not block} */
    public boolean isReady() {
        return ready.isComplete();
    }

    /** Blocks until the copy has completed (on a GPU the thread sleeps in the driver). */
    public void awaitReady() {
        ready.synchronize();
    }

    /**
     * Waits for the copy if it is still running (so the pool never hands out memory a copy is still writing), then
     * returns the memory and the event. Closing again does nothing.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            ready.synchronize();
        } finally {
            try {
                buffer.close();
            } finally {
                events.release(ready); // the event goes back even when freeing the buffer failed
            }
        }
    }

    @Override
    public String toString() {
        return "DeviceBatch[" + spec + " @0x" + Long.toHexString(buffer.address()) + (closed ? ", closed]" : "]");
    }
}
