package org.spdl4j.cuda;

/**
 * A marker in a {@link DeviceStream} (a CUDA event): complete once all work queued before it has completed.
 *
 * <p><b>Threads:</b> {@link #isComplete()} and {@link #synchronize()} may be called from any thread, also while
 * another thread records. <b>Ownership:</b> one owner, who closes it.
 */
public interface DeviceEvent extends AutoCloseable {
    /**
     * Captures the work queued on {@code stream} so far: the event completes when that work has. Does not block.
     *
     * @param stream a stream of the same device
     */
    void record(DeviceStream stream);

    /** {@return true when the work captured by the last {@link #record} has completed (or nothing was recorded)} */
    boolean isComplete();

    /**
     * Blocks the calling thread until the event is complete (sleeping, not spinning, on a GPU).
     *
     * @throws DeviceClosedException if the device is closed: nothing was waited for, so the captured work may still
     *                               be running (a caller must not reuse what that work reads)
     */
    void synchronize();

    /** Destroys the event. */
    @Override
    void close();
}
