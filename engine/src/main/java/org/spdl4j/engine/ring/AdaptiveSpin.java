package org.spdl4j.engine.ring;

/**
 * The adaptive length of a backoff wait's spin phase, from {@code 0} to the policy's {@code spins}. Spinning pays
 * when the item is being produced on another core and arrives within the spin; it is wasted when the producer needs
 * this very CPU (more runnable threads than cores), where every spin only delays the yield that would let it run
 * (one {@link Thread#onSpinWait()} is some 25 ns on current x86 parts, so 100 spins hold the CPU ~2.5 µs).
 *
 * <p>So: a wait that ended while spinning, or right after one idle yield, lengthens the phase (doubling, up to the
 * policy's spins); a wait whose first yield was contended halves it. Waits that idled longer (several idle yields or
 * parks) leave it as it is: they say nothing about spinning.
 *
 * <p><b>Threading:</b> one waiting thread (it belongs to that thread's {@link BackoffIdle}).
 */
final class AdaptiveSpin {
    private final int max;
    private int limit;

    /**
     * Starts at the longest spin phase.
     *
     * @param max the policy's spins
     */
    AdaptiveSpin(int max) {
        this.max = max;
        this.limit = max;
    }

    /** {@return how many spins the next wait makes before it yields} */
    int limit() {
        return limit;
    }

    /**
     * Adjusts the phase from how a wait ended.
     *
     * @param yields              how many times the wait yielded (0: it ended while spinning)
     * @param firstYieldContended whether its first yield found another thread wanting the CPU
     * @param parked              whether it parked
     */
    void waitEnded(int yields, boolean firstYieldContended, boolean parked) {
        if (yields == 0 && !parked || yields == 1 && !firstYieldContended && !parked) {
            limit = Math.min(max, limit * 2 + 1);
        } else if (yields > 0 && firstYieldContended) {
            limit >>= 1;
        }
    }
}
