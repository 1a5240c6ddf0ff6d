package org.spdl4j.offheap.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.spdl4j.offheap.AcquisitionSite;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.LeakRecord;
import org.spdl4j.offheap.PoolRegistry;

/**
 * Which leases every live pool held at one moment, by identity, so a leak check can tell a lease taken since from
 * one held all along: comparing counts would pass a test that releases a lease held before it and leaks a new one.
 *
 * <p>A hold is its lease id and, when tracked (tests run paranoid), its acquisition site: a slab released and
 * acquired again since the snapshot has the same id but a new site. Untracked, such a re-acquisition of the very
 * same slab cannot be told apart (leases are pooled objects). Not thread-safe; for the test thread.
 */
final class HeldLeases {
    private final Map<BufferPool, Map<Integer, AcquisitionSite>> held = new IdentityHashMap<>();

    private HeldLeases() {
    }

    /** {@return the leases every live pool holds now} */
    static HeldLeases snapshot() {
        final HeldLeases s = new HeldLeases();
        for (BufferPool pool : PoolRegistry.livePools()) {
            final Map<Integer, AcquisitionSite> ids = new HashMap<>(); // null values: untracked holds
            for (LeakRecord r : pool.outstanding()) {
                ids.put(r.leaseId(), r.site());
            }
            s.held.put(pool, ids);
        }
        return s;
    }

    /** {@return whether the pool was live at the snapshot} */
    boolean knows(BufferPool pool) {
        return held.containsKey(pool);
    }

    /** {@return how many leases the pool held at the snapshot (0 for a pool opened since)} */
    int heldBefore(BufferPool pool) {
        return held.getOrDefault(pool, Map.of()).size();
    }

    /** {@return the leases the pool holds now that it did not hold at the snapshot; allocates} */
    List<LeakRecord> newSince(BufferPool pool) {
        final Map<Integer, AcquisitionSite> before = held.getOrDefault(pool, Map.of());
        final List<LeakRecord> fresh = new ArrayList<>();
        for (LeakRecord r : pool.outstanding()) {
            // Same id and same site object (or both untracked): the hold the snapshot saw.
            if (!before.containsKey(r.leaseId()) || before.get(r.leaseId()) != r.site()) {
                fresh.add(r);
            }
        }
        return fresh;
    }
}
