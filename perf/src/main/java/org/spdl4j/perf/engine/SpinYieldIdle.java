package org.spdl4j.perf.engine;

/**
 * The idle loop a hand-written JCTools pipeline would use: spin {@link #SPINS} times (onSpinWait), then yield.
 * Stateless; a thread calls {@link #idle(int)} with its own count of consecutive empty polls.
 */
final class SpinYieldIdle {
    static final int SPINS = 100;

    private SpinYieldIdle() {
    }

    /**
     * Idles once.
     *
     * @param misses consecutive unsuccessful polls/offers so far
     * @return {@code misses + 1}
     */
    static int idle(int misses) {
        if (misses < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
        return misses + 1;
    }
}
