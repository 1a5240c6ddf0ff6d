package org.spdl4j.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Groups items into lists of {@code size} items; at end of stream the last, shorter list is published unless
 * {@code dropLast}. <b>Allocation:</b> one {@link ArrayList} per batch (the consumer owns it); none per item.
 * <b>Threading:</b> one thread (the aggregate stage's worker).
 *
 * @param <T> the item type
 */
public final class BatchAggregator<T> implements Aggregator<T, List<T>> {
    private final int size;
    private final boolean dropLast;
    private ArrayList<T> batch;

    /**
     * Creates the aggregator.
     *
     * @param size     items per batch, at least 1
     * @param dropLast whether to drop a last batch shorter than {@code size}
     * @throws IllegalArgumentException if size is below 1
     */
    public BatchAggregator(int size, boolean dropLast) {
        if (size < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + size);
        }
        this.size = size;
        this.dropLast = dropLast;
        this.batch = new ArrayList<>(size);
    }

    @Override
    public List<T> add(T item) {
        batch.add(item);
        if (batch.size() < size) {
            return null;
        }
        List<T> full = batch;
        batch = new ArrayList<>(size);
        return full;
    }

    @Override
    public List<T> flush() {
        if (batch.isEmpty() || dropLast) {
            return null;
        }
        List<T> last = batch;
        batch = new ArrayList<>(0);
        return last;
    }

    /** {@return the items of the partial batch {@code dropLast} dropped, as a list, or {@code null} for none} */
    @Override
    public List<T> takeUndelivered() {
        if (batch.isEmpty()) {
            return null;
        }
        List<T> dropped = batch;
        batch = new ArrayList<>(0);
        return dropped;
    }
}
