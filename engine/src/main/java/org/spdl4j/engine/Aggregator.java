package org.spdl4j.engine;

/**
 * Folds items into aggregates (batches). Runs on one thread: an aggregate stage has a single worker, so an aggregator
 * needs no synchronisation and may reuse its own state between aggregates.
 *
 * @param <I> the item type
 * @param <O> the aggregate type
 */
public interface Aggregator<I, O> {
    /**
     * Adds an item.
     *
     * @param item the item, never {@code null}
     * @return a completed aggregate to publish, or {@code null} while the current one is not complete
     */
    O add(I item);

    /**
     * Called once at end of stream.
     *
     * @return the last, partial aggregate to publish, or {@code null} for none
     */
    O flush();

    /**
     * Hands over what the aggregator still holds and will never publish: the items of a partial aggregate that
     * {@link #flush()} dropped (a {@code dropLast} batch) or that a stopping pipeline cuts short. The engine passes
     * it to the pipeline's discard hook, so items that hold resources (pooled bytes) are released, not leaked. Called
     * once, after {@link #flush()}, on the aggregate stage's thread or, once that thread has ended, the closing one.
     *
     * @return what is held, in a form the discard hook understands (a list of items, a partial aggregate), or
     *         {@code null} when nothing is (the default, for aggregators that hold nothing back)
     */
    default Object takeUndelivered() {
        return null;
    }
}
