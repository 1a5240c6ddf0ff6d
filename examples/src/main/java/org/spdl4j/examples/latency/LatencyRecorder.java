package org.spdl4j.examples.latency;

import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.spdl4j.records.RecordConsumer;

/**
 * The consumer: checks each record (in order, right notional) and records its end-to-end latency in two
 * histograms, from the scheduled send time (coordinated-omission corrected) and from the actual send.
 *
 * <p><b>Threading:</b> written by the record pipeline's consumer thread only; read the results after
 * {@code awaitCompletion} returned (its latch orders the consumer's writes before the reader). <b>Allocation:</b>
 * none per record (the histograms are preallocated and recording into them does not allocate).
 */
final class LatencyRecorder implements RecordConsumer {
    /** Latencies above 10 s are clamped. */
    static final long HIGHEST_NANOS = 10_000_000_000L;

    private final long warmup;
    private final Histogram fromIntended = new Histogram(HIGHEST_NANOS, 3);
    private final Histogram fromSent = new Histogram(HIGHEST_NANOS, 3);
    private long expectedId;
    private long received;
    private long wrong;

    LatencyRecorder(long warmup) {
        this.warmup = warmup;
    }

    @Override
    public void accept(DirectBuffer r) {
        long now = System.nanoTime();
        long id = r.getLong(QuoteRecord.ID);
        boolean inOrder = id == expectedId;
        expectedId = id + 1; // a skipped or repeated record counts once; the ones after it are judged on their own
        if (!inOrder || r.getLong(QuoteRecord.NOTIONAL) != QuoteStages.expectedNotional(id)) {
            wrong++;
            return;
        }
        received++;
        if (id >= warmup) {
            fromIntended.recordValue(Math.min(HIGHEST_NANOS, now - r.getLong(QuoteRecord.INTENDED_NANOS)));
            fromSent.recordValue(Math.min(HIGHEST_NANOS, now - r.getLong(QuoteRecord.SENT_NANOS)));
        }
    }

    Histogram fromIntended() {
        return fromIntended;
    }

    Histogram fromSent() {
        return fromSent;
    }

    long received() {
        return received;
    }

    long wrong() {
        return wrong;
    }
}
