package org.spdl4j.examples.slots;

/**
 * The items and labels of the samples in flight, by input sequence number: the assign stage puts each item at its
 * slot's sequence, the fill stage takes it out, and the consumer reads the label of a sample of a batch it holds
 * ({@code Batch#sequence(i)}). No per-item object, no lock.
 *
 * <p><b>Capacity:</b> at least {@code batchesInFlight x batchSize}. A sequence is claimed only in a batch the assembler
 * handed out, and at most that many slots exist in unclosed batches, so an entry is never overwritten while its
 * sample is being filled or its batch is held by the consumer.
 *
 * <p><b>Threading:</b> written by the single assign thread; read by fill workers and the consumer after the rings
 * (release on publish, acquire on read) or the batch's completion (a volatile read-modify-write) ordered the write
 * before the read, so plain array accesses suffice.
 *
 * @param <I> the item type
 */
final class InFlightTable<I> {
    private final Object[] items;
    private final int[] labels;
    private final int mask;

    InFlightTable(int minCapacity) {
        int capacity = Integer.highestOneBit(Math.max(2, minCapacity - 1)) << 1;
        this.items = new Object[capacity];
        this.labels = new int[capacity];
        this.mask = capacity - 1;
    }

    void put(long sequence, I item, int label) {
        int i = (int) (sequence & mask);
        items[i] = item;
        labels[i] = label;
    }

    /** Takes the item out (the entry no longer keeps it reachable); the label stays for the consumer. */
    @SuppressWarnings("unchecked") // only put(long, I, int) stores into items
    I take(long sequence) {
        int i = (int) (sequence & mask);
        I item = (I) items[i];
        items[i] = null;
        return item;
    }

    int label(long sequence) {
        return labels[(int) (sequence & mask)];
    }

    /** Items put but never taken (a pipeline closed early); call only once every stage thread has stopped. */
    @SuppressWarnings("unchecked") // only put(long, I, int) stores into items
    void drain(java.util.function.Consumer<? super I> release) {
        for (int i = 0; i < items.length; i++) {
            if (items[i] != null) {
                I item = (I) items[i];
                items[i] = null;
                release.accept(item);
            }
        }
    }
}
