package org.spdl4j.examples.clicklog;

/**
 * Layout of one column batch in off-heap memory: struct of arrays, one column per feature, each column {@code B}
 * values long ({@code B} the batch size) and starting on a cache line, so a training step (or a copy to a device)
 * reads each feature as one contiguous array. Row {@code j} of the batch is index {@code j} of every column.
 *
 * <pre>
 *  offset 0                 rowBytes(B)                                                         batchBytes(B)
 *  +----------------+--------+--------+-----------------+----------------------+-------------+
 *  | row   int64[B] | user   | item   | categorical 0-3 | dense 0-12           | label       |
 *  |                | int32  | int32  | int32[B] x 4    | float32[B] x 13      | float32[B]  |
 *  +----------------+--------+--------+-----------------+----------------------+-------------+
 *  column 0           1        2        3 .. 6            7 .. 19                20
 *  every column padded to a multiple of 64 bytes: int64 columns take align64(8 B), the others align64(4 B)
 * </pre>
 *
 * <ul>
 *   <li>{@code row}: the row's number in the log (where it came from: for joining predictions back, or resuming).</li>
 *   <li>{@code user}, {@code item}, {@code categorical k}: embedding-table buckets (the hash stage's output).</li>
 *   <li>{@code dense i}: normalized features (the normalize stage's output).</li>
 *   <li>{@code label}: 1.0 for a click, 0.0 otherwise (float, as a logistic loss takes it).</li>
 * </ul>
 * The platform's byte order (little-endian on x86-64 and aarch64), as numpy, torch and the CUDA copy read it.
 */
final class ColumnBatchDescriptor {
    /** Column of row numbers, int64. */
    static final int ROW = 0;
    /** Column of user buckets, int32. */
    static final int USER = 1;
    /** Column of item buckets, int32. */
    static final int ITEM = 2;
    /** First of the categorical bucket columns, int32. */
    static final int CATEGORICAL = 3;
    /** First of the dense feature columns, float32. */
    static final int DENSE = CATEGORICAL + ClickRowDescriptor.CATEGORICAL_COUNT;
    /** Column of labels, float32. */
    static final int LABEL = DENSE + ClickRowDescriptor.DENSE_COUNT;
    /** Columns in a batch. */
    static final int COLUMNS = LABEL + 1;
    /** Every column starts on a cache line. */
    static final int ALIGNMENT = 64;

    private ColumnBatchDescriptor() {
    }

    /**
     * {@return the bytes of one value of a column: 8 for the row column, 4 for the others}
     *
     * @param column 0 to {@link #COLUMNS} - 1
     */
    static int width(int column) {
        return column == ROW ? Long.BYTES : Integer.BYTES;
    }

    /**
     * {@return a column's offset in its batch}
     *
     * @param column    0 to {@link #COLUMNS} - 1
     * @param batchSize rows per batch
     */
    static long columnOffset(int column, int batchSize) {
        return column == ROW ? 0 : columnBytes(ROW, batchSize) + (column - 1) * columnBytes(USER, batchSize);
    }

    /**
     * {@return the bytes of one batch}
     *
     * @param batchSize rows per batch
     */
    static long batchBytes(int batchSize) {
        return columnOffset(COLUMNS - 1, batchSize) + columnBytes(COLUMNS - 1, batchSize);
    }

    private static long columnBytes(int column, int batchSize) {
        return ((long) width(column) * batchSize + ALIGNMENT - 1) & -ALIGNMENT;
    }
}
