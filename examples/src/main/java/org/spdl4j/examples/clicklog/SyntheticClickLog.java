package org.spdl4j.examples.clicklog;

/**
 * A synthetic click log: every field of row {@code r} is a pure function of {@code r}, so a test (or a rerun) knows
 * what each row held without storing it. Ids are drawn from hashed row numbers; item popularity is skewed (low ids
 * are drawn more often); dense features are heavy-tailed counts, one in 32 missing; the label is drawn from a
 * logistic model of a few features, so a model trained on the rows can learn something.
 *
 * <p><b>Threading:</b> stateless. <b>Allocation:</b> none.
 */
final class SyntheticClickLog {
    /** Distinct users. */
    static final long USERS = 5_000_000;
    /** Distinct items. */
    static final long ITEMS = 20_000;
    /** Items below this id are clicked more. */
    static final long POPULAR_ITEMS = 500;
    private static final int[] CATEGORICAL_VALUES = {168, 4, 200, 1_000}; // hour of week, device, country, ad category
    private static final double[] DEVICE_EFFECT = {0.4, -0.2, 0.0, -0.6};

    private SyntheticClickLog() {
    }

    /**
     * {@return row r's user id}
     *
     * @param r the row
     */
    static long user(long r) {
        return (bits(r, 0) >>> 1) % USERS;
    }

    /**
     * {@return row r's item id, low ids more often (the square of a uniform draw)}
     *
     * @param r the row
     */
    static long item(long r) {
        double u = uniform(bits(r, 1));
        return (long) (ITEMS * u * u);
    }

    /**
     * {@return row r's categorical value k}
     *
     * @param r the row
     * @param k 0 to {@link ClickRowDescriptor#CATEGORICAL_COUNT} - 1
     */
    static int categorical(long r, int k) {
        return (int) ((bits(r, 2 + k) >>> 1) % CATEGORICAL_VALUES[k]);
    }

    /**
     * {@return row r's dense count i: 0 to 2^24, heavy-tailed, or {@link ClickRowDescriptor#MISSING} one time in 32}
     *
     * @param r the row
     * @param i 0 to {@link ClickRowDescriptor#DENSE_COUNT} - 1
     */
    static int dense(long r, int i) {
        long b = bits(r, 10 + i);
        if ((b & 31) == 0) {
            return ClickRowDescriptor.MISSING;
        }
        return (int) ((b >>> 40) >>> ((b >>> 8) & 15));
    }

    /**
     * {@return row r's label: 1 (a click) with the probability of a logistic model of three normalized dense features,
     * the item's popularity and the device}
     *
     * @param r the row
     */
    static int label(long r) {
        double logit = -1.0
                + 1.2 * FeatureStages.normalized(dense(r, 0))
                - 0.9 * FeatureStages.normalized(dense(r, 1))
                + 0.6 * FeatureStages.normalized(dense(r, 2))
                + (item(r) < POPULAR_ITEMS ? 1.5 : -0.3)
                + DEVICE_EFFECT[categorical(r, 1)];
        double p = 1.0 / (1.0 + StrictMath.exp(-logit));
        return uniform(bits(r, 99)) < p ? 1 : 0;
    }

    private static double uniform(long bits) {
        return (bits >>> 11) * 0x1.0p-53;
    }

    private static long bits(long r, int field) {
        return FeatureStages.mix(r * 0x9E3779B97F4A7C15L + field * 0xD1B54A32D192ED03L);
    }
}
