package org.spdl4j.examples.latency;

import org.spdl4j.engine.Source;

/**
 * Emits {@code count} quotes at a fixed rate, each stamped with the time it was <em>scheduled</em> to go
 * ({@code start + i / rate}) as well as the time it went. Measuring latency from the scheduled time is what corrects
 * coordinated omission: when the pipeline stalls, the source falls behind schedule and the quotes it could not send
 * on time are charged the waiting they would have seen, instead of silently not being sent.
 *
 * <p><b>Zero garbage:</b> quotes come from a preallocated ring of {@code poolSize} objects, reused by sequence. That is
 * safe because the pipeline bounds the quotes in flight (ring capacities plus one per worker and the consumer), and
 * {@code poolSize} must exceed that bound; the caller sizes it. <b>Threading:</b> the engine's single source thread.
 * <b>Waiting:</b> busy-spins on {@link System#nanoTime()} until each scheduled time (latency-critical: no park).
 */
final class PacedQuoteSource implements Source<Quote> {
    private final Quote[] pool;
    private final int mask;
    private final long count;
    private final long intervalNanos;
    private long next;
    private long startNanos;

    PacedQuoteSource(long count, long ratePerSecond, int poolSize) {
        if (Integer.bitCount(poolSize) != 1) {
            throw new IllegalArgumentException("pool size must be a power of two, got " + poolSize);
        }
        this.pool = new Quote[poolSize];
        for (int i = 0; i < poolSize; i++) {
            pool[i] = new Quote();
        }
        this.mask = poolSize - 1;
        this.count = count;
        this.intervalNanos = 1_000_000_000L / ratePerSecond;
    }

    @Override
    public Quote next() {
        if (next == count) {
            return null;
        }
        if (next == 0) {
            startNanos = System.nanoTime();
        }
        long intended = startNanos + next * intervalNanos;
        long now;
        while ((now = System.nanoTime()) < intended) {
            Thread.onSpinWait();
        }
        Quote q = pool[(int) (next & mask)];
        q.id = next++;
        q.intendedNanos = intended;
        q.sentNanos = now;
        return q;
    }
}
