package org.spdl4j.engine.stats;

import java.util.function.LongSupplier;

/** A nanosecond clock the test moves by hand. */
final class ManualClock implements LongSupplier {
    private volatile long now = 1_000_000_000L;

    void advance(long nanos) {
        now += nanos;
    }

    @Override
    public long getAsLong() {
        return now;
    }
}
