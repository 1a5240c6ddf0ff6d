package org.spdl4j.offheap;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import org.jctools.queues.MpmcArrayQueue;

/**
 * One size class of a {@link BufferPool}: {@code count} slabs of one size carved from a few big allocations (see
 * {@link SlabDescriptor}), their preallocated {@link Lease} objects, and an MPMC free list of those leases.
 *
 * <p><b>Thread safety:</b> {@link #poll()} and {@link #offer(Lease)} are lock-free and allocation-free from any
 * thread (JCTools {@link MpmcArrayQueue}). The free list's poll is a load-acquire and its offer a store-release, so
 * whatever a releasing thread wrote into a slab is visible to the next thread that acquires it.
 */
final class SizeClass {
    private static final VarHandle HIGH_WATER;

    static {
        try {
            HIGH_WATER = MethodHandles.lookup().findVarHandle(SizeClass.class, "highWater", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int slabBytes;
    final int count;
    final Lease[] leases;
    private final long stride;
    private final int perChunk;
    private final long[] chunkBases;
    private final long[] chunkSizes;
    private final MpmcArrayQueue<Lease> free;
    private final AtomicLong waits = new AtomicLong(); // slow path only
    private final AtomicLong timeouts = new AtomicLong(); // slow path only
    @SuppressWarnings("unused") // accessed through HIGH_WATER
    private volatile int highWater;

    /**
     * Allocates the class's chunks and creates its leases. On failure, frees what it allocated (every chunk, even when
     * one free fails: those failures are suppressed on the original one) and rethrows.
     */
    @SuppressWarnings("restricted") // reinterpret: the allocator's contract makes [base, base + size) valid
    SizeClass(BufferPool pool, PoolConfig config, SizeClassSpec spec, int firstLeaseId) {
        this.slabBytes = spec.slabBytes();
        this.count = spec.count();
        final int alignment = config.alignment();
        final long stride = SlabDescriptor.stride(slabBytes, alignment);
        final int perChunk = SlabDescriptor.slabsPerChunk(stride, count, config.maxChunkBytes());
        this.stride = stride;
        this.perChunk = perChunk;
        final int chunks = (count + perChunk - 1) / perChunk;
        this.chunkBases = new long[chunks];
        this.chunkSizes = new long[chunks];
        this.leases = new Lease[count];
        this.free = new MpmcArrayQueue<>(Math.max(2, count));
        final MemoryAllocator allocator = config.allocator();
        int allocated = 0;
        try {
            for (int c = 0; c < chunks; c++) {
                final int slabs = Math.min(perChunk, count - c * perChunk);
                chunkSizes[c] = slabs * stride;
                chunkBases[c] = allocator.allocate(chunkSizes[c], alignment);
                allocated++;
                // Restricted call (reinterpret), once per chunk at start: lets leases hand out ByteBuffer views.
                final MemorySegment chunk = MemorySegment.ofAddress(chunkBases[c]).reinterpret(chunkSizes[c]);
                for (int k = 0; k < slabs; k++) {
                    final int i = c * perChunk + k;
                    leases[i] = new Lease(pool, this, firstLeaseId + i,
                            SlabDescriptor.slabAddress(chunkBases[c], k, stride), chunk.asSlice(k * stride, slabBytes));
                }
            }
        } catch (RuntimeException | Error e) {
            for (int c = 0; c < allocated; c++) {
                try {
                    allocator.free(chunkBases[c], chunkSizes[c], alignment);
                } catch (RuntimeException | Error freeFailure) {
                    e.addSuppressed(freeFailure);
                }
            }
            throw e;
        }
        for (Lease lease : leases) {
            free.offer(lease);
        }
    }

    /**
     * The lease whose slab holds {@code address}, found by arithmetic on the chunk layout ({@link SlabDescriptor}).
     * Reads only final fields: any thread, no lock, no allocation.
     */
    Lease leaseAt(long address) {
        for (int c = 0; c < chunkBases.length; c++) { // one chunk per class unless a class exceeds maxChunkBytes
            final long offset = address - chunkBases[c];
            if (offset >= 0 && offset < chunkSizes[c]) {
                final long k = offset / stride;
                return offset - k * stride < slabBytes ? leases[c * perChunk + (int) k] : null; // else: padding
            }
        }
        return null;
    }

    /** {@return a free lease, or null when the class is empty} Lock-free, allocation-free. */
    Lease poll() {
        final Lease lease = free.poll();
        if (lease != null) {
            noteInUse();
        }
        return lease;
    }

    /** Returns a lease whose count reached zero. Lock-free, allocation-free. */
    void offer(Lease lease) {
        if (!free.offer(lease)) {
            // Cannot happen: the queue holds at least `count` and every lease is in it at most once (the CAS on
            // its reference count lets exactly one release reach here).
            throw new IllegalStateException("size class " + slabBytes + " B: free list full; a lease was returned twice");
        }
    }

    private void noteInUse() {
        // size() reads the free list's two indices, which poll() has just touched: cheaper than another shared
        // counter. Approximate under concurrency, exact when quiet; the high-water mark only ever grows.
        final int inUse = count - free.size();
        int hw = (int) HIGH_WATER.getOpaque(this);
        while (inUse > hw) {
            if (HIGH_WATER.weakCompareAndSetPlain(this, hw, inUse)) {
                break;
            }
            hw = (int) HIGH_WATER.getOpaque(this);
        }
    }

    void recordWait() {
        waits.incrementAndGet();
    }

    void recordTimeout() {
        timeouts.incrementAndGet();
    }

    int inUse() {
        return count - free.size();
    }

    SizeClassStats stats() {
        return new SizeClassStats(slabBytes, count, inUse(), (int) HIGH_WATER.getVolatile(this), waits.get(),
                timeouts.get());
    }

    /**
     * Frees every chunk; only once every lease is back (the pool guarantees it). A chunk whose free fails does not
     * stop the others: the first failure is thrown once all were tried, the later ones suppressed on it.
     */
    void free(PoolConfig config) {
        CleanupFailures failures = new CleanupFailures();
        for (int c = 0; c < chunkBases.length; c++) {
            long base = chunkBases[c];
            long size = chunkSizes[c];
            failures.run(() -> config.allocator().free(base, size, config.alignment()));
        }
        failures.rethrow();
    }
}
