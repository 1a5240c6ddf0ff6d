package org.spdl4j.engine.source;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import org.agrona.BufferUtil;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolExhaustedException;

/**
 * A {@link SampleAllocator} over an off-heap {@link BufferPool}: each field's bytes land in a pooled slab (one
 * {@link Lease}), so the decode stage reads them at a fixed native address and memory in flight is bounded by the
 * pool, not by the dataset.
 *
 * <p><b>Design (how a buffer finds its lease again, allocation-free):</b> {@link SampleAllocator#release} gets only
 * the {@link ByteBuffer}, so the lease does not travel with it. Instead each slab has <em>one</em> direct
 * {@code ByteBuffer} view, made the first time its lease is acquired and kept in an array indexed by
 * {@link Lease#id()} (dense within a pool); {@link #allocate} resets and returns that same object. {@link #release}
 * reads the buffer's address (Agrona's {@link BufferUtil#address}, a field read) and asks the pool for the lease at
 * that address ({@link BufferPool#leaseAt}, arithmetic on the slab layout). Neither direction allocates, locks or
 * hashes, and {@link SampleAllocator}, {@link Sample} and every reader keep their plain-buffer API.
 *
 * <p><b>The buffer:</b> direct, position 0, limit {@code size}; its capacity is the slab's (the
 * {@link SampleAllocator} contract allows more than asked): do not {@code clear()} it or write past the limit, the
 * bytes beyond belong to no one. Byte order is the {@code ByteBuffer} default (big-endian), as with
 * {@link SampleAllocator#HEAP}. A zero-byte field gets a fresh empty heap buffer (rare: no slab is spent on
 * nothing); releasing it does nothing.
 *
 * <p><b>Threads:</b> thread-safe. A slab's view is written only by the thread that holds its lease; the pool's free
 * list (store-release on return, load-acquire on acquire) orders one holder's use before the next one's.
 * <b>Blocking:</b> {@link #allocate} waits for a free slab up to the pool's acquire timeout (back-pressure).
 * <b>Ownership:</b> the pool belongs to the caller, who closes it after the last sample is closed; a sample never
 * closed shows as a leaked lease (with where it was acquired) in the pool's leak report.
 * <b>Errors:</b> an empty pool past the timeout is an {@link IllegalStateException} naming the pool and its use; a
 * size larger than the pool's largest slab an {@link IllegalArgumentException} (configure a larger size class or a
 * smaller limit, such as {@code HttpFetchSettings.maxBodyBytes}); releasing a buffer this pool did not hand out an
 * {@link IllegalArgumentException}; releasing one twice a {@code LeaseStateException} (when detectable: see
 * {@link Lease}).
 */
public final class PooledSampleAllocator implements SampleAllocator {
    private final BufferPool pool;
    /** One view per slab, by lease id; slot i is read and written only by the holder of lease i (see class doc). */
    private final ByteBuffer[] views;

    /**
     * Creates an allocator over a pool.
     *
     * @param pool where field bytes go; still owned (and closed) by the caller
     */
    public PooledSampleAllocator(BufferPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.views = new ByteBuffer[pool.slabCount()];
    }

    /** {@return the pool the buffers come from} */
    public BufferPool pool() {
        return pool;
    }

    @Override
    public ByteBuffer allocate(int size) {
        if (size == 0) {
            return ByteBuffer.allocate(0); // rare (empty members): not worth a slab
        }
        final Lease lease;
        try {
            lease = pool.acquire(size);
        } catch (PoolExhaustedException e) {
            throw new IllegalStateException("sample allocator: " + e.getMessage(), e);
        }
        ByteBuffer view = views[lease.id()];
        if (view == null) { // once per slab for the life of the pool
            view = slabView(lease);
            views[lease.id()] = view;
        }
        // The same view comes back each time its slab does: reset what an earlier holder may have changed (clear()
        // resets position and limit, not the byte order, which Sample's contract says is big-endian).
        return view.clear().limit(size).order(ByteOrder.BIG_ENDIAN);
    }

    @Override
    public void release(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            if (buffer.capacity() == 0) {
                return; // the empty buffer of a zero-byte field
            }
            throw new IllegalArgumentException("sample allocator over pool '" + pool.name()
                    + "': released a heap buffer of " + buffer.capacity() + " B it never handed out");
        }
        final long address = BufferUtil.address(buffer);
        final Lease lease = pool.leaseAt(address);
        if (lease == null || views[lease.id()] == null || BufferUtil.address(views[lease.id()]) != address) {
            throw new IllegalArgumentException("sample allocator over pool '" + pool.name() + "': buffer at 0x"
                    + Long.toHexString(address) + " is not the start of one of its slabs; release the buffer "
                    + "allocate() returned, once");
        }
        lease.release();
    }

    @SuppressWarnings("restricted") // once per slab: a view of memory the pool keeps until it is closed; the JVM
                                    // runs with --enable-native-access=ALL-UNNAMED (root pom's spdl4j.jvm.flags)
    private static ByteBuffer slabView(Lease lease) {
        return MemorySegment.ofAddress(lease.address()).reinterpret(lease.slabCapacity()).asByteBuffer();
    }

    @Override
    public String toString() {
        return "PooledSampleAllocator[" + pool + "]";
    }
}
