package org.spdl4j.examples.clicklog;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One batch of click-log rows as columns ({@link ColumnBatchDescriptor}) in off-heap memory owned by its
 * {@link ColumnBatcher}: what a training step reads. Row {@code j} is index {@code j} of every column; the values are
 * read through the accessors below, or a column as a whole at {@link #columnAddress(int)} (a copy to a device, a
 * native kernel).
 *
 * <p><b>Ownership:</b> {@link ClickLogLoader#next()} hands the batch to its caller, who reads it and then
 * {@link #close() closes} it, which gives it back for refilling: do not read it after. <b>Threading:</b> filled by the
 * record pipeline's consumer thread; read and closed by the thread that took it from {@code next()} (the hand-off
 * queues order the fill before the reads). <b>Allocation:</b> none; the batch objects and their memory are made once.
 */
final class ColumnBatch implements AutoCloseable {
    private final ColumnBatcher owner;
    private final UnsafeBuffer block;
    private final int capacity;
    private final int[] offsets = new int[ColumnBatchDescriptor.COLUMNS];
    private int size; // consumer thread while filling; the holder after the hand-off
    private boolean held; // holder thread only: handed out and not yet closed

    /**
     * Wraps a batch's memory.
     *
     * @param owner    the batcher it goes back to
     * @param address  the batch's first byte, 64-byte aligned, {@link ColumnBatchDescriptor#batchBytes} long
     * @param capacity rows per batch
     */
    ColumnBatch(ColumnBatcher owner, long address, int capacity) {
        this.owner = owner;
        this.capacity = capacity;
        this.block = new UnsafeBuffer(address, (int) ColumnBatchDescriptor.batchBytes(capacity));
        for (int c = 0; c < offsets.length; c++) {
            offsets[c] = (int) ColumnBatchDescriptor.columnOffset(c, capacity);
        }
    }

    /** {@return rows in this batch: its capacity, or fewer for the stream's last batch} */
    int size() {
        return size;
    }

    /** {@return rows a batch holds when full} */
    int capacity() {
        return capacity;
    }

    /**
     * {@return row j's number in the log}
     *
     * @param j 0 to {@link #size()} - 1
     */
    long row(int j) {
        return block.getLong(offsets[ColumnBatchDescriptor.ROW] + j * Long.BYTES);
    }

    /**
     * {@return row j's bucket in a sparse field's embedding table}
     *
     * @param field {@link FeatureStages#USER_FIELD}, {@link FeatureStages#ITEM_FIELD}, or 2 + a categorical field
     * @param j     0 to {@link #size()} - 1
     */
    int sparse(int field, int j) {
        return block.getInt(offsets[ColumnBatchDescriptor.USER + field] + j * Integer.BYTES);
    }

    /**
     * {@return row j's normalized dense feature i}
     *
     * @param i 0 to {@link ClickRowDescriptor#DENSE_COUNT} - 1
     * @param j 0 to {@link #size()} - 1
     */
    float dense(int i, int j) {
        return block.getFloat(offsets[ColumnBatchDescriptor.DENSE + i] + j * Float.BYTES);
    }

    /**
     * {@return row j's label, 1.0 for a click}
     *
     * @param j 0 to {@link #size()} - 1
     */
    float label(int j) {
        return block.getFloat(offsets[ColumnBatchDescriptor.LABEL] + j * Float.BYTES);
    }

    /**
     * {@return the address of a column's first value; {@link #size()} values follow it}
     *
     * @param column 0 to {@link ColumnBatchDescriptor#COLUMNS} - 1
     */
    long columnAddress(int column) {
        return block.addressOffset() + offsets[column];
    }

    /** Gives the batch back to its batcher for refilling. Idempotent; on the thread that took it. */
    @Override
    public void close() {
        if (held) {
            held = false;
            owner.recycle(this);
        }
    }

    /** Marks the batch handed out (holder thread). */
    ColumnBatch handOut() {
        held = true;
        return this;
    }

    /** Points the batch at no memory (its batcher frees the block next). */
    void detach() {
        block.wrap(0, 0);
    }

    /** Starts filling afresh (consumer thread, once the batch is back). */
    void clear() {
        size = 0;
    }

    /**
     * Appends a row, column by column (consumer thread).
     *
     * @param row a row the normalize and hash stages have transformed
     * @return whether the batch is now full
     */
    boolean append(DirectBuffer row) {
        int j = size;
        int at4 = j * Integer.BYTES;
        block.putLong(offsets[ColumnBatchDescriptor.ROW] + j * Long.BYTES, row.getLong(ClickRowDescriptor.ROW));
        block.putInt(offsets[ColumnBatchDescriptor.USER] + at4, (int) row.getLong(ClickRowDescriptor.USER));
        block.putInt(offsets[ColumnBatchDescriptor.ITEM] + at4, (int) row.getLong(ClickRowDescriptor.ITEM));
        for (int k = 0; k < ClickRowDescriptor.CATEGORICAL_COUNT; k++) {
            block.putInt(offsets[ColumnBatchDescriptor.CATEGORICAL + k] + at4,
                    row.getInt(ClickRowDescriptor.categorical(k)));
        }
        for (int i = 0; i < ClickRowDescriptor.DENSE_COUNT; i++) {
            block.putFloat(offsets[ColumnBatchDescriptor.DENSE + i] + at4, row.getFloat(ClickRowDescriptor.dense(i)));
        }
        block.putFloat(offsets[ColumnBatchDescriptor.LABEL] + at4, row.getInt(ClickRowDescriptor.LABEL));
        size = j + 1;
        return size == capacity;
    }
}
