package org.spdl4j.examples.latency;

/**
 * One small mutable record pushed through the latency pipeline: preallocated by {@link PacedQuoteSource} and reused,
 * so the pipeline allocates nothing per message. Fields are plain: exactly one stage touches a quote at a time, and
 * the rings between stages publish its writes (release on publish, acquire on read).
 */
final class Quote {
    /** Sequence number from the source. */
    long id;
    /** When the source was scheduled to send it ({@code System.nanoTime}): the rate's clock, not the send. */
    long intendedNanos;
    /** When the source actually sent it. */
    long sentNanos;
    /** Set by the price stage. */
    long price;
    /** Set by the price stage. */
    int quantity;
    /** Set by the risk stage: notional, checked by the consumer against {@link QuoteStages#expectedNotional}. */
    long notional;
}
