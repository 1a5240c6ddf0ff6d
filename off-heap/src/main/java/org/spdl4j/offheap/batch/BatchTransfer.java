package org.spdl4j.offheap.batch;

import java.util.concurrent.CompletionStage;

/**
 * Moves a finished host batch somewhere else, asynchronously: the optional transfer step of a loader (a host-to-device
 * copy, or any user function). cuda-staging implements it for CUDA devices and for the host copy path.
 *
 * <p><b>Ownership:</b> {@link #transfer} takes the batch: the transfer closes it once its bytes are no longer needed
 * (a copy completed, or failed), on every path, also when it throws. What the returned stage completes with belongs to
 * the loader, then to the consumer, which closes it. <b>Threading:</b> {@link #transfer} is called by one dispatcher
 * thread; completions come on any thread. At most {@link #maxInFlight()} transfers are outstanding at once.
 *
 * @param <T> what a transferred batch becomes (a device batch)
 */
public interface BatchTransfer<T extends AutoCloseable> extends AutoCloseable {
    /**
     * Starts moving one batch.
     *
     * @param batch the host batch, at least one sample; owned by the transfer from here on
     * @return completes with the transferred batch, or exceptionally naming what failed
     */
    CompletionStage<T> transfer(Batch batch);

    /** {@return transfers outstanding at most (streams); the loader's transfer stage keeps no more in flight} */
    int maxInFlight();

    /** Waits for transfers in flight and frees what the transfer owns (streams); called once, after the last. */
    @Override
    void close();
}
