package org.spdl4j.offheap.testing;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.LeakRecord;
import org.spdl4j.offheap.PoolRegistry;

/**
 * The check behind {@link PoolLeakExtension}, usable on its own: snapshot how many leases each live pool has out,
 * run some code, then assert every pool is back to its snapshot (pools opened since: back to zero).
 *
 * <p>Leases released by background threads get a grace period before the check fails. The failure names each pool
 * left short and every lease it still has out, with the stack that acquired it (when tracked: tests run paranoid).
 */
public final class PoolLeakCheck {
    private final Map<BufferPool, Integer> baseline = new IdentityHashMap<>();

    private PoolLeakCheck() {
        for (BufferPool pool : PoolRegistry.livePools()) {
            baseline.put(pool, pool.inUse());
        }
    }

    /** {@return a snapshot of every live pool's leases in use} */
    public static PoolLeakCheck snapshot() {
        return new PoolLeakCheck();
    }

    /**
     * Waits up to {@code grace} for every live pool to be back to its snapshot.
     *
     * @param grace how long leases released on other threads may take to come back
     * @param what  what ran (a test's name), for the message
     * @throws AssertionError naming each pool left short and the acquisition stacks of its outstanding leases
     */
    public void assertNoLeaks(Duration grace, String what) {
        final long deadline = System.nanoTime() + grace.toNanos();
        StringBuilder failure;
        do {
            failure = null;
            for (BufferPool pool : PoolRegistry.livePools()) {
                final int expected = baseline.getOrDefault(pool, 0);
                final int inUse = pool.inUse();
                if (inUse > expected) {
                    if (failure == null) {
                        failure = new StringBuilder(what).append(" left buffer pools short:");
                    }
                    final List<LeakRecord> held = pool.outstanding();
                    failure.append("\n- pool '").append(pool.name()).append("': ").append(inUse - expected)
                            .append(" more lease(s) held than before (").append(inUse).append(" now, ").append(expected)
                            .append(" before)").append(pool.isClosed() ? ", pool closed" : "");
                    for (LeakRecord r : held) {
                        failure.append("\n  ").append(r.describe().replace("\n", "\n  "));
                    }
                }
            }
            if (failure == null) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        } while (System.nanoTime() < deadline);
        throw new AssertionError(failure.toString());
    }
}
