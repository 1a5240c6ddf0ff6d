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
}
