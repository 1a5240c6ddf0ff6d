package org.spdl4j.examples.latency;

import org.agrona.MutableDirectBuffer;
import org.spdl4j.records.RecordSource;

/**
 * Writes {@code count} quote records at a fixed rate, each stamped with the time it was <em>scheduled</em> to go
 * ({@code start + i / rate}) as well as the time it went. Measuring latency from the scheduled time is what corrects
 * coordinated omission: when the pipeline stalls, the source falls behind schedule and the records it could not send
 * on time are charged the waiting they would have seen, instead of silently not being sent.
 *
 * <p><b>Zero garbage:</b> it writes straight into the ring slot's bytes. <b>Threading:</b> the record pipeline's
 * single source thread. <b>Waiting:</b> busy-spins on {@link System#nanoTime()} until each scheduled time
 * (latency-critical: no park).
 */
final class PacedQuoteSource implements RecordSource {
    private final long count;
    private final long ratePerSecond;
    private long next;
    private long startNanos;

    PacedQuoteSource(long count, long ratePerSecond) {
        this.count = count;
        this.ratePerSecond = ratePerSecond;
    }

    @Override
    public boolean next(MutableDirectBuffer record) {
        if (next == count) {
            return false;
        }
        if (next == 0) {
            startNanos = System.nanoTime();
        }
        // Exact schedule: record i is due at i / rate seconds (a whole-nanosecond interval would round 3 M/s to
        // 3.003 M/s, and 400 M/s to 500 M/s). Split so nothing overflows: (i % rate) * 1e9 < rate * 1e9 <= 1e18
        // for any rate up to 10^9/s.
        long intended = startNanos + next / ratePerSecond * 1_000_000_000L
                + next % ratePerSecond * 1_000_000_000L / ratePerSecond;
        long now;
        while ((now = System.nanoTime()) < intended) {
            Thread.onSpinWait();
        }
        record.putLong(QuoteRecord.ID, next++);
        record.putLong(QuoteRecord.INTENDED_NANOS, intended);
        record.putLong(QuoteRecord.SENT_NANOS, now);
        return true;
    }
}
