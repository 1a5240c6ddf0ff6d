package org.spdl4j.loader.internal;

import org.jctools.queues.MpmcArrayQueue;

/**
 * Recycled {@link LoaderItem}s: the source takes one per sample, and whoever holds it last (decode, a failed read,
 * the close path) gives it back. The pipeline bounds the items in flight (rings, workers, the slot table), so after
 * warm-up every take finds a recycled item.
 *
 * <p><b>Threading:</b> any threads (JCTools MPMC queue, lock-free). <b>Allocation:</b> a new item only when none is
 * free (warm-up, or after {@link #retire}); none in the steady state.
 */
public final class LoaderItemPool {
    private final MpmcArrayQueue<LoaderItem> free;

    /**
     * Creates the pool.
     *
     * @param capacity the most items it keeps for reuse (the items that can be in flight)
     */
    public LoaderItemPool(int capacity) {
        this.free = new MpmcArrayQueue<>(Math.max(2, capacity));
    }

    /** {@return a cleared item} */
    public LoaderItem take() {
        LoaderItem item = free.poll();
        return item != null ? item : new LoaderItem();
    }

    /**
     * Gives back the item's bytes and the item.
     *
     * @param item an item taken from this pool, not given back yet
     */
    public void release(LoaderItem item) {
        try {
            item.releaseBytes();
        } finally {
            item.clear();
            free.offer(item); // full (more items than in-flight room, after retires): the item is dropped
        }
    }

    /**
     * Gives back the bytes but not the item: the engine still names the item in its log line after a failed task,
     * so a failed item must not carry another sample by then. A new item takes its place on a later take.
     *
     * @param item an item taken from this pool, not given back yet
     */
    public void retire(LoaderItem item) {
        item.releaseBytes();
    }
}
