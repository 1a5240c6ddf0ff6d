package org.spdl4j.examples.clicklog;

/**
 * Layout of one click-log row in a record-ring slot: 112 bytes, so that with the slot's 8-byte header a slot is two
 * 64-byte cache lines (little-endian, the platform's order, read and written through Agrona flyweights).
 *
 * <pre>
 *   0      8                16           24       32       40                    56      60                     112
 *   +------+----------------+------------+--------+--------+---------------------+-------+----------------------+
 *   | row  | intendedNanos  | sentNanos  | user   | item   | categorical[4] int  | label | dense[13] int|float  |
 *   +------+----------------+------------+--------+--------+---------------------+-------+----------------------+
 *   source:     writes every field (user, item, categorical: raw ids; dense: raw counts as ints, -1 missing)
 *   normalize:  dense[i] int count -> float, (log1p(count) - mean) / std, in place (4 bytes stay 4 bytes)
 *   hash:       user, item, categorical[k] raw id -> embedding-table bucket, in place
 * </pre>
 *
 * <p>{@code row} is the row's number in the log (0, 1, ...); {@code intendedNanos} is when the source was scheduled
 * to send the row ({@code System.nanoTime} clock), {@code sentNanos} when it did. {@code user} and {@code item} are
 * longs (raw ids, then buckets); {@code categorical} are hour of week, device, country and ad category;
 * {@code label} is 1 for a click, 0 otherwise.
 */
final class ClickRowDescriptor {
    /** Bytes per row: with the slot header, two cache lines a slot. */
    static final int LENGTH = 112;
    /** Row number, long. */
    static final int ROW = 0;
    /** Scheduled send time, long nanoseconds. */
    static final int INTENDED_NANOS = 8;
    /** Actual send time, long nanoseconds. */
    static final int SENT_NANOS = 16;
    /** User id, then its bucket, long. */
    static final int USER = 24;
    /** Item id, then its bucket, long. */
    static final int ITEM = 32;
    /** First of {@link #CATEGORICAL_COUNT} categorical ids, then their buckets, ints. */
    static final int CATEGORICAL = 40;
    /** Categorical fields besides user and item. */
    static final int CATEGORICAL_COUNT = 4;
    /** Click label, int 0 or 1. */
    static final int LABEL = 56;
    /** First of {@link #DENSE_COUNT} dense features: int counts, then normalized floats. */
    static final int DENSE = 60;
    /** Dense features (as many as the Criteo click logs have). */
    static final int DENSE_COUNT = 13;
    /** A missing dense count. */
    static final int MISSING = -1;

    private ClickRowDescriptor() {
    }

    /**
     * {@return the offset of a categorical field}
     *
     * @param k 0 to {@link #CATEGORICAL_COUNT} - 1
     */
    static int categorical(int k) {
        return CATEGORICAL + k * Integer.BYTES;
    }

    /**
     * {@return the offset of a dense feature}
     *
     * @param i 0 to {@link #DENSE_COUNT} - 1
     */
    static int dense(int i) {
        return DENSE + i * Float.BYTES;
    }
}
