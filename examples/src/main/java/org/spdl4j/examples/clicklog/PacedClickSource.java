package org.spdl4j.examples.clicklog;

import org.agrona.MutableDirectBuffer;
import org.spdl4j.records.RecordSource;

/**
 * Writes {@code count} click-log rows ({@link SyntheticClickLog}) into ring slots, at a fixed rate or as fast as the
 * ring takes them, each stamped with the time it was <em>scheduled</em> to go ({@code start + i / rate}) as well as
 * the time it went. Measuring latency from the scheduled time is what corrects coordinated omission: when the pipeline
 * stalls, the source falls behind schedule and the rows it could not send on time are charged the waiting they would
 * have seen, instead of silently not being sent. Unpaced (rate 0), each row is scheduled when it is sent.
 *
 * <p><b>Zero garbage:</b> it writes straight into the ring slot's bytes. <b>Threading:</b> the record pipeline's
 * single source thread. <b>Waiting:</b> busy-spins on {@link System#nanoTime()} until each scheduled time (no park: a
 * park's wake-up is tens of microseconds late).
 */
final class PacedClickSource implements RecordSource {
    private final long count;
    private final long ratePerSecond;
    private long next;
    private long startNanos;

    /**
     * Creates the source.
     *
     * @param count         rows to write
     * @param ratePerSecond rows per second, 1 to 10^9, or 0 for as fast as the ring takes them
     */
    PacedClickSource(long count, long ratePerSecond) {
        this.count = count;
        this.ratePerSecond = ratePerSecond;
    }

    @Override
    public boolean next(MutableDirectBuffer row) {
        if (next == count) {
            return false;
        }
        long now = System.nanoTime();
        long intended = now;
        if (ratePerSecond > 0) {
            if (next == 0) {
                startNanos = now;
            }
            // Exact schedule: row i is due at i / rate seconds (a whole-nanosecond interval would round 3 M/s to
            // 3.003 M/s). Split so nothing overflows: (i % rate) * 1e9 < rate * 1e9 <= 1e18 for rates up to 10^9/s.
            intended = startNanos + next / ratePerSecond * 1_000_000_000L
                    + next % ratePerSecond * 1_000_000_000L / ratePerSecond;
            while ((now = System.nanoTime()) < intended) {
                Thread.onSpinWait();
            }
        }
        long r = next++;
        row.putLong(ClickRowDescriptor.ROW, r);
        row.putLong(ClickRowDescriptor.INTENDED_NANOS, intended);
        row.putLong(ClickRowDescriptor.SENT_NANOS, now);
        row.putLong(ClickRowDescriptor.USER, SyntheticClickLog.user(r));
        row.putLong(ClickRowDescriptor.ITEM, SyntheticClickLog.item(r));
        for (int k = 0; k < ClickRowDescriptor.CATEGORICAL_COUNT; k++) {
            row.putInt(ClickRowDescriptor.categorical(k), SyntheticClickLog.categorical(r, k));
        }
        row.putInt(ClickRowDescriptor.LABEL, SyntheticClickLog.label(r));
        for (int i = 0; i < ClickRowDescriptor.DENSE_COUNT; i++) {
            row.putInt(ClickRowDescriptor.dense(i), SyntheticClickLog.dense(r, i));
        }
        return true;
    }
}
