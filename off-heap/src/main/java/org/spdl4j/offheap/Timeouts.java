package org.spdl4j.offheap;

import java.time.Duration;

/** Converts timeouts without overflow: a timeout too long for a {@code long} of nanoseconds means "forever". */
public final class Timeouts {
    private Timeouts() {
    }

    /**
     * {@return the duration in nanoseconds, saturated at {@link Long#MAX_VALUE} (about 292 years) instead of the
     * {@link ArithmeticException} {@link Duration#toNanos()} throws, e.g. for {@code ChronoUnit.FOREVER}}
     * Waits compare elapsed time against it, so the saturated value never overflows a deadline.
     *
     * @param timeout the timeout, not negative
     */
    public static long nanos(Duration timeout) {
        try {
            return timeout.toNanos();
        } catch (ArithmeticException e) {
            return timeout.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
