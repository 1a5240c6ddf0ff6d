package org.spdl4j.offheap;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pools whose memory is allocated: from {@link BufferPool#open} until the pool is closed and every lease is
 * back. Test leak checks read it to find pools left short. Thread-safe; not for the hot path.
 */
public final class PoolRegistry {
    private static final Set<BufferPool> LIVE = ConcurrentHashMap.newKeySet();

    private PoolRegistry() {
    }

    static void register(BufferPool pool) {
        LIVE.add(pool);
    }

    static void unregister(BufferPool pool) {
        LIVE.remove(pool);
    }

    /** {@return a snapshot of the pools whose memory is still allocated} */
    public static List<BufferPool> livePools() {
        return List.copyOf(LIVE);
    }
}
