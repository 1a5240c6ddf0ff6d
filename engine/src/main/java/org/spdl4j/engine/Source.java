package org.spdl4j.engine;

/**
 * Where a pipeline's items come from. Called by the pipeline's single source thread only, so an implementation needs
 * no synchronisation. {@link PipelineBuilder} adapts iterables, iterators, streams and suppliers; implement this for
 * anything else (sharded files, a message queue).
 *
 * @param <T> the item type
 */
public interface Source<T> extends AutoCloseable {
    /**
     * Produces the next item, blocking as long as it needs (the thread is interrupted on close).
     *
     * @return the next item, or {@code null} at end of stream
     * @throws Exception if the source failed; the pipeline ends with this cause after the items already emitted
     */
    T next() throws Exception;

    /**
     * The epoch of the item last returned by {@link #next()}: 0 for a finite source, counting up for a source that
     * repeats its data.
     *
     * @return the epoch
     */
    default long epoch() {
        return 0;
    }

    /** Releases what the source holds; called once when the pipeline closes. Must not throw. */
    @Override
    default void close() {
        // nothing to release by default
    }
}
