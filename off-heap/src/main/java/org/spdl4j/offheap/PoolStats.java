package org.spdl4j.offheap;

import java.util.List;

/**
 * A snapshot of a pool's use, one entry per size class (smallest first). Taking one allocates; not for the hot path.
 *
 * @param pool    the pool's name
 * @param classes per-class figures
 */
public record PoolStats(String pool, List<SizeClassStats> classes) {
    /**
     * Copies the list.
     *
     * @param pool    the pool's name
     * @param classes per-class figures
     */
    public PoolStats {
        classes = List.copyOf(classes);
    }

    /** {@return slabs leased out, all classes together} */
    public int inUse() {
        int sum = 0;
        for (SizeClassStats c : classes) {
            sum += c.inUse();
        }
        return sum;
    }

    /** {@return acquires that had to wait, all classes together} */
    public long waits() {
        long sum = 0;
        for (SizeClassStats c : classes) {
            sum += c.waits();
        }
        return sum;
    }

    @Override
    public String toString() {
        return "pool '" + pool + "' [" + String.join("; ", classes.stream().map(SizeClassStats::toString).toList())
                + "]";
    }
}
