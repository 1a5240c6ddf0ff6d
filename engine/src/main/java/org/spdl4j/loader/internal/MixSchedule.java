package org.spdl4j.loader.internal;

import java.util.Arrays;

/**
 * Which part of a weighted mixture each position of an epoch draws from: a fixed, deterministic interleave in which
 * every prefix of the epoch holds each part in proportion to its weight: within half a sample with two parts, within
 * {@code parts / 2} samples with more.
 *
 * <p>The order is a divisor-method apportionment (Sainte-Laguë), seat by seat: position {@code p} goes to the part
 * {@code j} whose next quotient {@code share[j] / (2 c[j] + 1)} is largest, {@code c[j]} being the samples part
 * {@code j} had before {@code p} (ties: the lower part index). The method is house-monotone, so the counts after
 * {@code p} positions are a closed form of {@code p} ({@link #countsAt}): opening an epoch in the middle (resume) costs
 * {@code O(parts^2)}, not a walk from the start. Two parts 3:1 interleave as {@code 0 0 1 0 | 0 0 1 0 ...}: in any
 * prefix of length {@code p}, part {@code j} holds {@code p * w[j] / sum(w)} rounded to the nearest. With more parts a
 * count can stray further from its quota (Sainte-Laguë does not keep to the quota; measured up to
 * {@code 0.33 (parts - 1)} samples over random weights).
 *
 * <p>Weights are kept as integer shares (the largest weight is {@value #SCALE}; the others in proportion, at least
 * 1), so every comparison is exact integer arithmetic: the same schedule on every machine and JVM.
 *
 * <p><b>Threading:</b> immutable, thread-safe. <b>Allocation:</b> none in {@link #countsAt} and {@link #next}: the
 * caller owns the count array.
 */
public final class MixSchedule {
    /** The share of the largest weight: weights are resolved to one part in 2^20. */
    static final long SCALE = 1L << 20;
    /** Counts stay below this, so {@code share * (2 c + 1)} stays below 2^62. */
    static final long MAX_COUNT = 1L << 40;

    private final long[] shares;
    private final long totalShares;

    /**
     * Creates the schedule.
     *
     * @param weights each part's weight, finite and positive (only the ratios matter)
     * @throws IllegalArgumentException when there is no part or a weight is not finite and positive
     */
    public MixSchedule(double[] weights) {
        if (weights.length == 0) {
            throw new IllegalArgumentException("a mixture needs at least one part");
        }
        double max = 0;
        for (int j = 0; j < weights.length; j++) {
            if (!(weights[j] > 0) || Double.isInfinite(weights[j])) {
                throw new IllegalArgumentException("part " + j + ": weight " + weights[j]
                    + " is not a finite number above 0");
            }
            max = Math.max(max, weights[j]);
        }
        shares = new long[weights.length];
        long total = 0;
        for (int j = 0; j < weights.length; j++) {
            shares[j] = Math.max(1, Math.round(weights[j] / max * SCALE));
            total += shares[j];
        }
        totalShares = total;
    }

    /** {@return the number of parts} */
    public int parts() {
        return shares.length;
    }

    /**
     * {@return part {@code j}'s fraction of every epoch, as the schedule resolves the weights}
     *
     * @param j the part
     */
    public double fraction(int j) {
        return (double) shares[j] / totalShares;
    }

    /**
     * Whether part {@code a}'s sample number {@code ca} comes before part {@code b}'s sample number {@code cb}.
     * A strict total order on (part, count) pairs, in which each part's pairs come in count order.
     */
    private boolean before(int a, long ca, int b, long cb) {
        long left = shares[a] * (2 * cb + 1);
        long right = shares[b] * (2 * ca + 1);
        return left > right || left == right && a < b;
    }

    /**
     * Fills {@code counts} with how many of the first {@code position} positions each part holds.
     *
     * @param position the number of positions, 0 up to {@value #MAX_COUNT}
     * @param counts   one per part, overwritten
     */
    public void countsAt(long position, long[] counts) {
        if (position < 0 || position >= MAX_COUNT) {
            throw new IllegalArgumentException("mixture position " + position + " outside [0, 2^40)");
        }
        int m = shares.length;
        long sum = 0;
        for (int j = 0; j < m; j++) {
            // The quota less one: Sainte-Laguë's counts are nearly always within one of the quota, so the loops
            // below add fewer than `parts` samples. (position * share < 2^60: no overflow.)
            counts[j] = Math.max(0, position * shares[j] / totalShares - 1);
            sum += counts[j];
        }
        while (sum < position) {
            counts[next(counts)]++;
            sum++;
        }
        while (sum > position) { // only where a count passes its quota by more than one
            counts[last(counts)]--;
            sum--;
        }
        // The counts are each part's first pairs; they are the first `position` pairs of the order once no pair
        // left out comes before one taken: swap the worst taken for the best left out until none does.
        for (;;) {
            int in = last(counts);
            int out = next(counts);
            if (in < 0 || !before(out, counts[out], in, counts[in] - 1)) {
                return;
            }
            counts[in]--;
            counts[out]++;
        }
    }

    /**
     * {@return the part the next position draws from, given the counts so far (the caller increments it)}
     *
     * @param counts each part's samples so far, as {@link #countsAt} or successive {@code next} calls leave them
     */
    public int next(long[] counts) {
        int best = 0;
        for (int j = 1; j < shares.length; j++) {
            if (before(j, counts[j], best, counts[best])) {
                best = j;
            }
        }
        return best;
    }

    /** The part whose last pair taken comes last in the order, or -1 when none is taken. */
    private int last(long[] counts) {
        int worst = -1;
        for (int j = 0; j < shares.length; j++) {
            if (counts[j] > 0 && (worst < 0 || before(worst, counts[worst] - 1, j, counts[j] - 1))) {
                worst = j;
            }
        }
        return worst;
    }

    @Override
    public String toString() {
        return "MixSchedule" + Arrays.toString(shares);
    }
}
