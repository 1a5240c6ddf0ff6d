package org.spdl4j.offheap.testing;

import java.util.IdentityHashMap;
import java.util.Map;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.LeakRecord;
import org.spdl4j.offheap.PoolRegistry;

/**
 * Every buffer pool whose memory is still allocated must be full again: back to the leases it had out before the
 * class (pools opened by the class: none out); and a pool the class opened must be closed (an open pool holds its
 * memory for good, even when full). Names each lease still out with the stack that acquired it (tests
 * run with paranoid leak detection).
 */
final class PoolsLeftoverCheck implements LeftoverCheck {
    private final Map<BufferPool, Integer> baseline = new IdentityHashMap<>();

    @Override
    public void before() {
        for (BufferPool pool : PoolRegistry.livePools()) {
            baseline.put(pool, pool.inUse());
        }
    }

    @Override
    public String leftovers() {
        StringBuilder left = null;
        for (BufferPool pool : PoolRegistry.livePools()) {
            int expected = baseline.getOrDefault(pool, 0);
            int inUse = pool.inUse();
            if (!baseline.containsKey(pool) && !pool.isClosed()) {
                left = left == null ? new StringBuilder() : left.append('\n');
                left.append("pool '").append(pool.name()).append("' opened by the class and never closed");
            } else if (inUse > expected) {
                left = left == null ? new StringBuilder() : left.append('\n');
                left.append("pool '").append(pool.name()).append("' short by ").append(inUse - expected)
                        .append(" lease(s)").append(pool.isClosed() ? " (closed)" : "");
                for (LeakRecord r : pool.outstanding()) {
                    left.append("\n  ").append(r.describe().replace("\n", "\n  "));
                }
            }
        }
        return left == null ? null : left.toString();
    }
}
