package org.spdl4j.perf.engine;

/**
 * The item every pipeline benchmark moves: a mutable holder, preallocated in a pool, so no benchmark allocates per
 * item and the measured difference is the hand-off machinery alone.
 *
 * <p><b>Reuse rule:</b> a source hands out {@code pool[i & mask]} for its i-th item. The pool is larger than the most
 * items a pipeline can hold at once (ring/queue capacities plus one per thread), and every stage is FIFO, so an item
 * is reused only after the consumer has finished with it.
 */
final class Item {
    long value;

    /**
     * Preallocates a pool.
     *
     * @param size a power of two greater than the items the pipeline can hold at once
     * @return the pool
     */
    static Item[] pool(int size) {
        if (Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("item pool size must be a power of two, got " + size);
        }
        Item[] items = new Item[size];
        for (int i = 0; i < size; i++) {
            items[i] = new Item();
        }
        return items;
    }

    /** The first trivial stage function: mutates in place, returns the same item (no allocation). */
    static Item plusOne(Item item) {
        item.value += 1;
        return item;
    }

    /** The second trivial stage function. */
    static Item timesThree(Item item) {
        item.value *= 3;
        return item;
    }
}
