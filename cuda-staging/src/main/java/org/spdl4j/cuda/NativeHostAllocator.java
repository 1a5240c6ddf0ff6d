package org.spdl4j.cuda;

import org.spdl4j.offheap.MemoryAllocator;

/**
 * {@link MemoryAllocator} over plain native memory (C {@code aligned_alloc}/{@code free}), the host allocator of
 * {@link HostDevice}. Not pinned. Thread-safe; counts live blocks in the device's counters.
 */
final class NativeHostAllocator implements MemoryAllocator {
    private final LiveResourceCounters counters;

    NativeHostAllocator(LiveResourceCounters counters) {
        this.counters = counters;
    }

    @Override
    public long allocate(long bytes, int alignment) {
        long address = NativeMemory.allocate(bytes, alignment, name());
        counters.hostBlock(bytes, +1);
        return address;
    }

    @Override
    public void free(long address, long bytes, int alignment) {
        NativeMemory.free(address);
        counters.hostBlock(bytes, -1);
    }

    @Override
    public String name() {
        return "host-native";
    }
}
