package org.spdl4j.engine.ring;

import java.util.concurrent.locks.LockSupport;

/**
 * What a backoff wait does to time: read the clock, spin, yield, park. The engine uses {@link #SYSTEM}; tests pass a clock
 * of their own to check the phases without depending on the machine's scheduler.
 */
interface BackoffClock {
    /**
     * The real clock: {@link System#nanoTime()}, {@link Thread#onSpinWait()}, {@link Thread#yield()},
     * {@link LockSupport#parkNanos(long)}.
     */
    BackoffClock SYSTEM = new BackoffClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void spinOnce() {
            Thread.onSpinWait();
        }

        @Override
        public void yieldOnce() {
            Thread.yield();
        }

        @Override
        public void park(long nanos) {
            LockSupport.parkNanos(nanos);
        }
    };

    /** {@return a monotonic time in nanoseconds} */
    long nanoTime();

    /** One iteration of a spin wait (a hint to the CPU that this thread is spinning). */
    void spinOnce();

    /** Gives the CPU to another runnable thread, if any. */
    void yieldOnce();

    /**
     * Parks the calling thread.
     *
     * @param nanos for at most this long (returns early on interrupt or unpark)
     */
    void park(long nanos);
}
