package org.spdl4j.offheap;

import java.util.concurrent.locks.LockSupport;

/**
 * The bounded idle strategy of every wait in this module (a pool with no free slab, an assembler with no free
 * batch): spin, then yield, then park with a doubling period capped at a maximum.
 *
 * <p>Stateless (the caller keeps the attempt count), so a wait allocates nothing. Safe from any thread.
 */
public final class Backoff {
    private static final int SPINS = 64;
    private static final int YIELDS = 16;

    private Backoff() {
    }

    /**
     * Idles once.
     *
     * @param attempt      how many times the caller has idled in this wait, from 0
     * @param maxParkNanos the longest park
     */
    public static void idle(int attempt, long maxParkNanos) {
        if (attempt < SPINS) {
            Thread.onSpinWait();
        } else if (attempt < SPINS + YIELDS) {
            Thread.yield();
        } else {
            final int doublings = Math.min(attempt - SPINS - YIELDS, 20);
            LockSupport.parkNanos(Math.min(maxParkNanos, 1_000L << doublings));
        }
    }
}
