package org.spdl4j.examples.clicklog;

import org.agrona.MutableDirectBuffer;

/**
 * The two in-place stages of the click-log pipeline, on a {@link ClickRowDescriptor} row, and the functions they
 * apply (which tests and the synthetic labels reuse):
 * <ul>
 *   <li>{@link #normalize}: each dense count becomes {@code (log1p(count) - MEAN) / STD} as a float, written over
 *       the count; a missing count becomes 0 (the mean). {@link StrictMath#log1p}: the same bits on every JVM and
 *       JIT tier, so a row normalizes identically wherever it is loaded.</li>
 *   <li>{@link #hash}: user, item and each categorical id becomes its bucket in that field's embedding table (the
 *       hashing trick: a salted 64-bit mix, masked to the table's power-of-two size), written over the id.</li>
 * </ul>
 * <b>Threading:</b> stateless; a stage may run several workers. <b>Allocation:</b> none.
 */
final class FeatureStages {
    /** Mean of log1p(count) over the synthetic log's dense features (measured; real logs measure theirs). */
    static final float LOG_MEAN = 10.44f;
    /** Standard deviation of log1p(count) over the same. */
    static final float LOG_STD = 3.35f;
    /** Sparse fields: user, item and the categorical ones. */
    static final int SPARSE_FIELDS = 2 + ClickRowDescriptor.CATEGORICAL_COUNT;
    /** Sparse field numbers: {@code USER_FIELD}, {@code ITEM_FIELD}, then categorical k at {@code 2 + k}. */
    static final int USER_FIELD = 0;
    /** The item's sparse field number. */
    static final int ITEM_FIELD = 1;
    private static final int[] BUCKETS = {1 << 18, 1 << 14, 1 << 10, 1 << 10, 1 << 10, 1 << 10};
    private static final float INV_STD = 1f / LOG_STD;

    private FeatureStages() {
    }

    /**
     * Normalize stage: every dense count to its normalized float, in place.
     *
     * @param row the row
     * @return {@code true}: every row is kept
     */
    static boolean normalize(MutableDirectBuffer row) {
        for (int i = 0; i < ClickRowDescriptor.DENSE_COUNT; i++) {
            int at = ClickRowDescriptor.dense(i);
            row.putFloat(at, normalized(row.getInt(at)));
        }
        return true;
    }

    /**
     * Hash stage: user, item and categorical ids to their buckets, in place.
     *
     * @param row the row
     * @return {@code true}: every row is kept
     */
    static boolean hash(MutableDirectBuffer row) {
        row.putLong(ClickRowDescriptor.USER, bucket(USER_FIELD, row.getLong(ClickRowDescriptor.USER)));
        row.putLong(ClickRowDescriptor.ITEM, bucket(ITEM_FIELD, row.getLong(ClickRowDescriptor.ITEM)));
        for (int k = 0; k < ClickRowDescriptor.CATEGORICAL_COUNT; k++) {
            int at = ClickRowDescriptor.categorical(k);
            row.putInt(at, bucket(2 + k, row.getInt(at)));
        }
        return true;
    }

    /**
     * {@return a dense count normalized: (log1p(count) - mean) / std, or 0 when missing}
     *
     * @param count a count, or {@link ClickRowDescriptor#MISSING}
     */
    static float normalized(int count) {
        if (count < 0) {
            return 0f;
        }
        return ((float) StrictMath.log1p(count) - LOG_MEAN) * INV_STD;
    }

    /**
     * {@return the bucket of a raw id in a sparse field's embedding table, 0 to {@link #buckets(int)} - 1}
     *
     * @param field 0 to {@link #SPARSE_FIELDS} - 1
     * @param raw   the raw id
     */
    static int bucket(int field, long raw) {
        return (int) (mix(raw + 0x632BE59BD9B4E019L * (field + 1)) & (BUCKETS[field] - 1));
    }

    /**
     * {@return the rows of a sparse field's embedding table}
     *
     * @param field 0 to {@link #SPARSE_FIELDS} - 1
     */
    static int buckets(int field) {
        return BUCKETS[field];
    }

    /**
     * {@return SplitMix64's finalizer of x: every input bit moves about half the output bits}
     *
     * @param x a value
     */
    static long mix(long x) {
        long z = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
