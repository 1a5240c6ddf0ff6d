package org.spdl4j.examples.clicklog;

import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;

/**
 * Each row's latency from the source to its place in a column batch, in two histograms: from the scheduled send time
 * (coordinated-omission corrected: what a producer sending at this rate would see) and from the actual send (what a
 * naive benchmark reports). Rows numbered below the warm-up are not recorded (JIT warm-up).
 *
 * <p><b>Threading:</b> written by the record pipeline's consumer thread only; read the histograms after the pipeline
 * completed (its completion latch orders the consumer's writes before the reader). <b>Allocation:</b> none per row
 * (preallocated histograms; values above {@link #HIGHEST_NANOS} are clamped, never resized for).
 */
final class RowLatency {
    /** Latencies above 10 s are clamped. */
    static final long HIGHEST_NANOS = 10_000_000_000L;

    private final long warmup;
    private final Histogram fromIntended = new Histogram(HIGHEST_NANOS, 3);
    private final Histogram fromSent = new Histogram(HIGHEST_NANOS, 3);

    /**
     * Creates the recorder.
     *
     * @param warmupRows rows numbered below this are not recorded
     */
    RowLatency(long warmupRows) {
        this.warmup = warmupRows;
    }

    /**
     * Records a row that has just landed in its batch.
     *
     * @param row      the row (its {@link ClickRowDescriptor} stamps are read)
     * @param nowNanos {@link System#nanoTime()} when it landed
     */
    void record(DirectBuffer row, long nowNanos) {
        if (row.getLong(ClickRowDescriptor.ROW) < warmup) {
            return;
        }
        fromIntended.recordValue(Math.min(HIGHEST_NANOS,
                Math.max(0, nowNanos - row.getLong(ClickRowDescriptor.INTENDED_NANOS))));
        fromSent.recordValue(Math.min(HIGHEST_NANOS,
                Math.max(0, nowNanos - row.getLong(ClickRowDescriptor.SENT_NANOS))));
    }

    /** {@return latencies from each row's scheduled send, ns} */
    Histogram fromIntended() {
        return fromIntended;
    }

    /** {@return latencies from each row's actual send, ns} */
    Histogram fromSent() {
        return fromSent;
    }
}
