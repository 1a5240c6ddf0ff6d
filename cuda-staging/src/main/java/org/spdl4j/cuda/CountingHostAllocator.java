package org.spdl4j.cuda;

import org.spdl4j.offheap.MemoryAllocator;

/**
 * The host allocator of {@link HostDevice}: off-heap's own allocator (plain native memory, see
 * {@link org.spdl4j.offheap.DirectMemoryAllocator}) with each live block counted in the device's
 * {@link LiveResourceCounters}, so a pool left open shows in {@link LiveResourceCounters#hostBlocks()} exactly as a
 * pinned pool does on a GPU. Not pinned.
 *
 * <p>Thread-safe (the delegate is; the counters are atomic). Called at pool start and close, never per batch.
 */
final class CountingHostAllocator implements MemoryAllocator {
    private final MemoryAllocator delegate;
    private final LiveResourceCounters counters;

    CountingHostAllocator(MemoryAllocator delegate, LiveResourceCounters counters) {
        this.delegate = delegate;
        this.counters = counters;
    }

    @Override
    public long allocate(long bytes, int alignment) {
        long address = delegate.allocate(bytes, alignment);
        counters.hostBlock(bytes, +1);
        return address;
    }

    @Override
    public void free(long address, long bytes, int alignment) {
        delegate.free(address, bytes, alignment);
        counters.hostBlock(bytes, -1);
    }

    @Override
    public String name() {
        return "host-" + delegate.name();
    }

    @Override
    public boolean isPinned() {
        return delegate.isPinned();
    }
}
