package org.spdl4j.examples.image;

/**
 * Labels by sample sequence number, in a ring as large as the most samples that can be in flight, so a consumer
 * holding a batch reads the labels of its samples ({@code Batch#sequence(i)}) without any per-batch allocation.
 *
 * <p><b>Threading:</b> written by the assign stage only; read by the consumer after the batch was published, which
 * happens-after every write for its samples (the batch's completion is a volatile read-modify-write and the rings
 * publish with release/acquire), so plain array accesses are enough.
 */
final class LabelRing {
    private final int[] labels;
    private final int mask;

    LabelRing(int minCapacity) {
        int capacity = Integer.highestOneBit(Math.max(2, minCapacity - 1)) << 1;
        this.labels = new int[capacity];
        this.mask = capacity - 1;
    }

    void put(long sequence, int label) {
        labels[(int) (sequence & mask)] = label;
    }

    int get(long sequence) {
        return labels[(int) (sequence & mask)];
    }
}
