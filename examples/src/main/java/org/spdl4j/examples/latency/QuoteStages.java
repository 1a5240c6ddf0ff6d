package org.spdl4j.examples.latency;

/**
 * The two stages' work, small and deterministic so the consumer can check it: price a quote from its id, then
 * compute its notional. Stateless; allocation-free; each returns the same object it was given.
 */
final class QuoteStages {
    private QuoteStages() {
    }

    /** Price stage: a pseudo-random price and quantity derived from the id (a few multiply-xorshifts). */
    static Quote price(Quote q) {
        long h = mix(q.id);
        q.price = 10_000 + (h & 0xFFFF);
        q.quantity = 1 + (int) ((h >>> 16) & 0xFF);
        return q;
    }

    /** Risk stage: notional = price x quantity. */
    static Quote risk(Quote q) {
        q.notional = q.price * q.quantity;
        return q;
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
