package org.spdl4j.loader.internal;

import org.spdl4j.loader.LoaderState;

/**
 * The slots of one epoch's order not settled before the world size changed, in ascending order, and one rank's
 * round-robin share of them: the slots {@code [0, total)} less a {@link LoaderState.Carry carried} set (a watermark
 * and the settled slots above it). Rank r of M takes the r-th, (r+M)-th, ... remaining slot.
 *
 * <p><b>Threading:</b> a walker ({@link #walk}) is single-threaded; the rest is immutable. <b>Allocation:</b> a copy
 * of the settled slots above the watermark, once; nothing per slot.
 */
public final class RemainingSlots {
    private final long total;
    private final long watermark;
    private final long[] above;

    /**
     * Creates the view.
     *
     * @param total   the epoch's slots: {@code (n / world) * world}
     * @param settled the slots settled before the change
     */
    public RemainingSlots(long total, LoaderState.Mark settled) {
        this.total = total;
        this.watermark = Math.min(settled.watermark(), total);
        this.above = settled.above();
        if (above.length > 0 && above[above.length - 1] >= total) {
            throw new IllegalArgumentException("settled slot " + above[above.length - 1] + " is outside the epoch's "
                + total + " slots: the state was saved for another dataset (its size changed)");
        }
    }

    /** {@return how many slots remain} */
    public long count() {
        return total - watermark - above.length;
    }

    /**
     * {@return how many remaining slots rank {@code rank} of {@code worldSize} takes}
     *
     * @param rank      the rank
     * @param worldSize the number of ranks
     */
    public long share(int rank, int worldSize) {
        long n = count();
        return n <= rank ? 0 : (n - rank + worldSize - 1) / worldSize;
    }

    /**
     * Starts a walk at the {@code first}-th remaining slot (0-based) that moves {@code step} remaining slots a time.
     *
     * @param first the index, among the remaining slots, of the first slot
     * @param step  how many remaining slots each {@link Walker#next} moves on
     * @return the walker
     */
    public Walker walk(long first, long step) {
        return new Walker(first, step);
    }

    /** A walk over every {@code step}-th remaining slot; single-threaded. */
    public final class Walker {
        private final long step;
        /** The index, among the remaining slots, of the next slot to return. */
        private long k;
        /** How many settled slots above the watermark lie at or below the current candidate. */
        private int passed;

        private Walker(long first, long step) {
            this.k = first;
            this.step = step;
        }

        /** {@return whether a slot remains} */
        public boolean hasNext() {
            return k < count();
        }

        /** {@return the next slot: the k-th remaining one} */
        public long next() {
            // The k-th slot not settled is watermark + k + (settled slots above the watermark at or below it).
            long slot = watermark + k + passed;
            while (passed < above.length && above[passed] <= slot) {
                passed++;
                slot++;
            }
            k += step;
            return slot;
        }
    }
}
