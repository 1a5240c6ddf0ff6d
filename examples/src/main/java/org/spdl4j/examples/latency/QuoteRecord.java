package org.spdl4j.examples.latency;

/**
 * Layout of one quote record in a record-ring slot: 56 bytes, so that with the slot's 8-byte header a slot is one
 * 64-byte cache line (little-endian as the platform's native order, read and written through Agrona flyweights).
 *
 * <pre>
 *   0        8                16          24        32    36   40         48         56
 *   +--------+----------------+-----------+---------+-----+----+----------+----------+
 *   | id     | intendedNanos  | sentNanos | price   | qty | -- | notional | (unused) |
 *   +--------+----------------+-----------+---------+-----+----+----------+----------+
 *   source writes id, intendedNanos, sentNanos; price stage writes price, qty; risk stage writes notional
 * </pre>
 *
 * <p>{@code intendedNanos} is when the source was scheduled to send the record ({@code System.nanoTime} clock),
 * {@code sentNanos} when it did.
 */
final class QuoteRecord {
    /** Bytes per record: with the slot header, one cache line a slot, so neighbouring records never share a line. */
    static final int LENGTH = 56;
    static final int ID = 0;
    static final int INTENDED_NANOS = 8;
    static final int SENT_NANOS = 16;
    static final int PRICE = 24;
    static final int QUANTITY = 32;
    static final int NOTIONAL = 40;

    private QuoteRecord() {
    }
}
