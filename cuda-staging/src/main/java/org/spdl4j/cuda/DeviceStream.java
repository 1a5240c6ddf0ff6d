package org.spdl4j.cuda;

/**
 * An ordered queue of device work (a CUDA stream). Work on one stream runs in order; work on different streams may
 * overlap (a copy on one with a kernel on another).
 *
 * <p><b>Threads:</b> methods may be called from any thread; enqueueing from two threads at once gives an order
 * the caller did not choose, so one thread (or a lock) per stream is the intended use.
 * <b>Ownership:</b> one owner, who closes it; close waits for the work already queued.
 */
public interface DeviceStream extends AutoCloseable {
    /**
     * Makes later work on this stream wait, on the device, until {@code event} has completed. Does not block the
     * calling thread.
     *
     * @param event an event recorded on any stream of the same device
     */
    void waitFor(DeviceEvent event);

    /** Blocks the calling thread until all work queued so far on this stream has completed. */
    void synchronize();

    /**
     * Waits for queued work, then destroys the stream. Works also after the device's {@link Device#close()} (the
     * stream keeps what it needs until destroyed), so it is the one wait left once the device refuses the others.
     */
    @Override
    void close();
}
