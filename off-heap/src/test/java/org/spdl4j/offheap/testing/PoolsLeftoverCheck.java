package org.spdl4j.offheap.testing;

import java.util.List;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.LeakRecord;
import org.spdl4j.offheap.PoolRegistry;

/**
 * Every buffer pool whose memory is still allocated must be full again: holding no lease it did not hold before the
 * class (pools opened by the class: none out), compared by identity, so a class that releases a lease held before
 * it and leaks a new one is caught; and a pool the class opened must be closed (an open pool holds its memory for
 * good, even when full). Names each lease the class left out with the stack that acquired it (tests run with
 * paranoid leak detection).
 */
final class PoolsLeftoverCheck implements LeftoverCheck {
    private HeldLeases baseline;

    @Override
    public void before() {
        baseline = HeldLeases.snapshot();
    }

    @Override
    public String leftovers() {
        StringBuilder left = null;
        for (BufferPool pool : PoolRegistry.livePools()) {
            if (!baseline.knows(pool) && !pool.isClosed()) {
                left = left == null ? new StringBuilder() : left.append('\n');
                left.append("pool '").append(pool.name()).append("' opened by the class and never closed");
                continue;
            }
            List<LeakRecord> fresh = baseline.newSince(pool);
            if (!fresh.isEmpty()) {
                left = left == null ? new StringBuilder() : left.append('\n');
                left.append("pool '").append(pool.name()).append("' short by ").append(fresh.size())
                        .append(" lease(s)").append(pool.isClosed() ? " (closed)" : "");
                for (LeakRecord r : fresh) {
                    left.append("\n  ").append(r.describe().replace("\n", "\n  "));
                }
            }
        }
        return left == null ? null : left.toString();
    }
}
