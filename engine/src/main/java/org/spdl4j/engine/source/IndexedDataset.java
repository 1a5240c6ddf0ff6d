package org.spdl4j.engine.source;

/**
 * A dataset whose items can be looked up by index: a folder walk, a file list, a list of URLs. The items are cheap
 * descriptions (a path and a label), not bytes; a reader stage turns them into {@link Sample}s.
 *
 * <p><b>Threading:</b> implementations are immutable and thread-safe. {@link #get} does not block.
 *
 * @param <T> the item type
 */
public interface IndexedDataset<T> {
    /** {@return the number of items} */
    long size();

    /**
     * Looks up an item.
     *
     * @param index the index, {@code 0 <= index < size()}
     * @return the item
     */
    T get(long index);
}
