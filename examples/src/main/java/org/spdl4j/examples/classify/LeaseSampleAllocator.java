package org.spdl4j.examples.classify;

import java.nio.ByteBuffer;
import java.time.Duration;
import org.agrona.BufferUtil;
import org.agrona.collections.Long2ObjectHashMap;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolConfig;

/**
 * Puts the bytes of samples read from tar shards into pooled off-heap memory, so the decoder reads them in place
 * by address (no heap copy, no garbage): each field gets a lease of its size class, and {@link #release} returns it.
 *
 * <p>The {@link SampleAllocator} contract hands back only the {@link ByteBuffer}, so the lease is found again by the
 * buffer's address in a primitive-keyed map. <b>Threading:</b> allocate on the source thread, release on decode
 * threads: the map is guarded by this object's monitor, held for one hash-map operation (uncontended in practice:
 * one allocation and one release per field). <b>Allocation:</b> the {@code ByteBuffer} view per field, which the
 * sample API needs. <b>Blocking:</b> allocate waits for a free lease up to the pool's timeout (back-pressure).
 */
public final class LeaseSampleAllocator implements SampleAllocator, AutoCloseable {
    private final BufferPool pool;
    private final Long2ObjectHashMap<Lease> byAddress = new Long2ObjectHashMap<>();

    /**
     * Opens a pool sized for {@code inFlight} samples of an image and a small label each.
     *
     * @param name     pool name (errors, stats)
     * @param inFlight the most samples alive at once
     */
    public LeaseSampleAllocator(String name, int inFlight) {
        this.pool = BufferPool.open(PoolConfig.builder(name)
            .sizeClass(256, inFlight) // labels, keys, small text members
            .sizeClass(128 * 1024, inFlight)
            .sizeClass(1024 * 1024, Math.max(4, inFlight / 4))
            .sizeClass(16 * 1024 * 1024, 2)
            .acquireTimeout(Duration.ofSeconds(60))
            .build());
    }

    @Override
    public ByteBuffer allocate(int size) {
        Lease lease = pool.acquire(Math.max(1, size));
        ByteBuffer view = lease.byteBuffer().limit(size);
        synchronized (this) {
            byAddress.put(BufferUtil.address(view), lease);
        }
        return view;
    }

    @Override
    public void release(ByteBuffer buffer) {
        Lease lease;
        synchronized (this) {
            lease = byAddress.remove(BufferUtil.address(buffer));
        }
        if (lease == null) {
            throw new IllegalStateException("buffer at 0x" + Long.toHexString(BufferUtil.address(buffer))
                + " was not allocated by pool '" + pool.name() + "' or was released twice");
        }
        lease.release();
    }

    /** {@return leases currently out} */
    public int inUse() {
        return pool.inUse();
    }

    /** Frees the pool; every sample must have been closed. */
    @Override
    public void close() {
        pool.close();
    }
}
