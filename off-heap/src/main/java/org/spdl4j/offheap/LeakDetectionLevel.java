package org.spdl4j.offheap;

import java.util.Locale;

/**
 * How closely a {@link BufferPool} watches for leases that are never released.
 *
 * <p>A tracked lease records the stack of the thread that acquired it (one {@link Throwable} allocated per tracked
 * acquire); {@link BufferPool#outstanding()} and {@link BufferPool#close()} report every lease still held, with that
 * stack when it was tracked. Set by {@value OffHeapConfiguration#LEAK_DETECTION_PROP}.
 */
public enum LeakDetectionLevel {
    /** Nothing recorded: the acquire path costs one predictable branch. Leaks are still counted at close. */
    OFF,
    /** One acquire in {@value OffHeapConfiguration#LEAK_SAMPLING_INTERVAL_DEFAULT} (by default) records its stack. */
    SAMPLED,
    /** Every acquire records its stack: for tests and debugging (a few microseconds per acquire). */
    PARANOID;

    /**
     * Parses a level name, case-insensitively.
     *
     * @param value "off", "sampled" or "paranoid"
     * @return the level
     * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
     */
    public static LeakDetectionLevel parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown leak detection level '" + value + "' (set by -D"
                    + OffHeapConfiguration.LEAK_DETECTION_PROP + "); use off, sampled or paranoid", e);
        }
    }
}
