package org.spdl4j.offheap.testing;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.LeakRecord;
import org.spdl4j.offheap.PoolRegistry;

/**
 * The check behind {@link PoolLeakExtension}, usable on its own: snapshot which leases each live pool has out,
 * run some code, then assert no pool holds a lease it did not hold at the snapshot (pools opened since: none).
 * Leases are compared by identity (id, and acquisition site when tracked), not counted: releasing a lease held
 * before and leaking a new one is a leak.
 *
 * <p>Leases released by background threads get a grace period before the check fails. The failure names each pool
 * left short and every lease it still has out, with the stack that acquired it (when tracked: tests run paranoid).
 */
public final class PoolLeakCheck {
    private final HeldLeases baseline = HeldLeases.snapshot();

    private PoolLeakCheck() {
    }

    /** {@return a snapshot of every live pool's leases in use} */
    public static PoolLeakCheck snapshot() {
        return new PoolLeakCheck();
    }

    /**
     * Waits up to {@code grace} for every live pool to hold no lease it did not hold at the snapshot.
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
                final List<LeakRecord> fresh = baseline.newSince(pool);
                if (!fresh.isEmpty()) {
                    if (failure == null) {
                        failure = new StringBuilder(what).append(" left buffer pools short:");
                    }
                    failure.append("\n- pool '").append(pool.name()).append("': ").append(fresh.size())
                            .append(" more lease(s) held that were not held before (").append(pool.inUse())
                            .append(" now, ").append(baseline.heldBefore(pool)).append(" before)")
                            .append(pool.isClosed() ? ", pool closed" : "");
                    for (LeakRecord r : fresh) {
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
