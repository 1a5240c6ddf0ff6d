package org.spdl4j.examples.latency;

import org.agrona.MutableDirectBuffer;

/**
 * The two stages' work, in place on a {@link QuoteRecord}, small and deterministic so the consumer can check it:
 * price a quote from its id, then compute its notional. Stateless; allocation-free.
 */
final class QuoteStages {
    private QuoteStages() {
    }

    /** Price stage: a pseudo-random price and quantity derived from the id (a few multiply-xorshifts). */
    static boolean price(MutableDirectBuffer r) {
        long h = mix(r.getLong(QuoteRecord.ID));
        r.putLong(QuoteRecord.PRICE, 10_000 + (h & 0xFFFF));
        r.putInt(QuoteRecord.QUANTITY, 1 + (int) ((h >>> 16) & 0xFF));
        return true;
    }

    /** Risk stage: notional = price x quantity. */
    static boolean risk(MutableDirectBuffer r) {
        r.putLong(QuoteRecord.NOTIONAL, r.getLong(QuoteRecord.PRICE) * r.getInt(QuoteRecord.QUANTITY));
        return true;
    }

    /** What the two stages must have produced for this id. */
    static long expectedNotional(long id) {
        long h = mix(id);
        return (10_000 + (h & 0xFFFF)) * (1 + ((h >>> 16) & 0xFF));
    }

    private static long mix(long x) {
        long z = x * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 31);
    }
}
