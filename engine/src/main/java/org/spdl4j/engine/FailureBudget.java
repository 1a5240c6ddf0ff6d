package org.spdl4j.engine;

/**
 * How many failed tasks a stage tolerates before the pipeline fails. A failed task (it threw or timed out) is
 * counted, logged and its item dropped; the failure that exceeds the budget fails the pipeline.
 *
 * <p>A fraction of no items is undefined, so the fraction is judged only once the stage has taken at least one item
 * (and {@code minItems}): a failure before any item (an aggregator's flush failing at the end of an empty stream)
 * counts against {@code maxCount} only. To tolerate no failure at all, use {@link #count(long) count(0)}.
 *
 * @param maxCount    failures tolerated in total ({@code Long.MAX_VALUE}: no count limit)
 * @param maxFraction failures tolerated as a fraction of the items the stage has taken, 0 to 1 (1: no limit)
 * @param minItems    the fraction is judged only once the stage has taken this many items (and at least one)
 */
public record FailureBudget(long maxCount, double maxFraction, long minItems) {
    /** Tolerates every failure (the default, as in SPDL: failures are logged and counted, items dropped). */
    public static final FailureBudget UNLIMITED = new FailureBudget(Long.MAX_VALUE, 1.0, 0);

    /** The items a fractional budget waits for before judging, unless told otherwise. */
    public static final long DEFAULT_MIN_ITEMS = 100;

    /**
     * Validates the components.
     *
     * @param maxCount    failures tolerated in total
     * @param maxFraction fraction of items tolerated
     * @param minItems    items before the fraction is judged
     * @throws IllegalArgumentException if a component is out of range
     */
    public FailureBudget {
        if (maxCount < 0) {
            throw new IllegalArgumentException("failure budget count must be >= 0, got " + maxCount);
        }
        if (!(maxFraction >= 0.0 && maxFraction <= 1.0)) {
            throw new IllegalArgumentException("failure budget fraction must be in [0, 1], got " + maxFraction);
        }
        if (minItems < 0) {
            throw new IllegalArgumentException("failure budget min items must be >= 0, got " + minItems);
        }
    }

    /**
     * Tolerates at most {@code failures} failed tasks; the next one fails the pipeline.
     *
     * @param failures failures tolerated, 0 or more
     * @return the budget
     */
    public static FailureBudget count(long failures) {
        return new FailureBudget(failures, 1.0, 0);
    }

    /**
     * Tolerates failures up to {@code fraction} of the items taken, judged after {@link #DEFAULT_MIN_ITEMS} items.
     *
     * @param fraction the tolerated fraction, 0 to 1
     * @return the budget
     */
    public static FailureBudget fraction(double fraction) {
        return new FailureBudget(Long.MAX_VALUE, fraction, DEFAULT_MIN_ITEMS);
    }

    /**
     * Whether {@code failures} failures among {@code itemsTaken} items exceed this budget: more than
     * {@code maxCount}, or, once at least {@code max(minItems, 1)} items were taken, a fraction over
     * {@code maxFraction}.
     *
     * @param failures   failures so far, including the current one
     * @param itemsTaken items the stage has taken so far
     * @return {@code true} if the pipeline must fail
     */
    public boolean isExceeded(long failures, long itemsTaken) {
        if (failures > maxCount) {
            return true;
        }
        // The quotient, not maxFraction * itemsTaken: 0.29 * 100 is 28.999999999999996 in doubles, which would fail
        // 29 failures in 100 items at a budget of 0.29; 29.0 / 100 rounds to the same double as the literal 0.29.
        // No items: no fraction to judge (failures / 0 would be infinite and fail the first failure before any item).
        return maxFraction < 1.0 && itemsTaken > 0 && itemsTaken >= minItems
                && (double) failures / itemsTaken > maxFraction;
    }

    @Override
    public String toString() {
        if (maxCount == Long.MAX_VALUE && maxFraction >= 1.0) {
            return "unlimited";
        }
        return maxCount != Long.MAX_VALUE ? maxCount + " failures" : maxFraction + " of items after " + minItems;
    }
}
