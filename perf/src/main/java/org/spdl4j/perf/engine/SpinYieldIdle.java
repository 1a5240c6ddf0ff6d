package org.spdl4j.perf.engine;

/**
 * The idle loops of the JCTools baseline, the same as the engine's {@code YIELDING} policy so that the two differ in
 * the queue alone: a consumer that finds its input empty re-polls {@link #SPINS} times (no {@code onSpinWait}, as
 * Disruptor's {@code YieldingWaitStrategy} re-reads the cursor) and then yields on every further miss
 * ({@link #pollMissed(int)}); a producer that finds its output full, and the benchmark thread waiting for an item,
 * yield on every miss ({@link #offerMissed()}), as Agrona's {@code YieldingIdleStrategy} does for the engine's
 * publishers and its sink. Stateless; a thread passes its own count of consecutive empty polls.
 */
final class SpinYieldIdle {
    /** Re-polls before the first yield: Disruptor's {@code YieldingWaitStrategy} spin tries. */
    static final int SPINS = 100;

    private SpinYieldIdle() {
    }

    /**
     * Idles once after an empty poll of a stage's input.
     *
     * @param misses consecutive empty polls so far
     * @return {@code misses + 1}
     */
    static int pollMissed(int misses) {
        if (misses >= SPINS) {
            Thread.yield();
        }
        return misses + 1;
    }

    /** Idles once after a refused offer (output full) or an empty poll of the benchmark thread's take. */
    static void offerMissed() {
        Thread.yield();
    }
}
