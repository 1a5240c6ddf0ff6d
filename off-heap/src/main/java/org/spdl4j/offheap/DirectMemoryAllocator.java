package org.spdl4j.offheap;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The default {@link MemoryAllocator}: plain native memory from the Foreign Function and Memory API, aligned as
 * asked (64 B by default, {@value OffHeapConfiguration#DMA_ALIGNMENT} B for DMA).
 *
 * <p>Each block gets its own shared {@link Arena}; {@link #free} closes it. Blocks are <b>zeroed</b> on allocation
 * (the FFM API guarantees it), which also touches every page up front, so the hot path takes no page faults.
 *
 * <p><b>Thread safety:</b> thread-safe; the address-to-arena map is a {@link ConcurrentHashMap}. Not for the hot
 * path: each call allocates, and closing a shared arena synchronises with every thread (a handshake).
 */
public final class DirectMemoryAllocator implements MemoryAllocator {
    /** A shared instance: the allocator has no per-instance configuration. */
    public static final DirectMemoryAllocator INSTANCE = new DirectMemoryAllocator();

    private final ConcurrentHashMap<Long, Block> blocks = new ConcurrentHashMap<>();

    private record Block(Arena arena, long bytes, int alignment) {
    }

    /** Creates an allocator; prefer {@link #INSTANCE}. */
    public DirectMemoryAllocator() {
    }

    @Override
    public long allocate(long bytes, int alignment) {
        if (bytes <= 0 || Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("direct allocator: bytes must be > 0 and alignment a power of two, got "
                    + bytes + " bytes, alignment " + alignment);
        }
        final Arena arena = Arena.ofShared();
        final MemorySegment segment;
        try {
            segment = arena.allocate(bytes, alignment);
        } catch (OutOfMemoryError e) {
            arena.close();
            final OutOfMemoryError named = new OutOfMemoryError("direct allocator: cannot allocate " + bytes
                    + " bytes aligned to " + alignment + " (" + e.getMessage() + "); lower the pool's size classes");
            named.initCause(e);
            throw named;
        }
        blocks.put(segment.address(), new Block(arena, bytes, alignment));
        return segment.address();
    }

    @Override
    public void free(long address, long bytes, int alignment) {
        final Block block = blocks.remove(address);
        if (block == null) {
            throw new IllegalArgumentException("direct allocator: address 0x" + Long.toHexString(address)
                    + " was not allocated here or was already freed");
        }
        if (block.bytes != bytes || block.alignment != alignment) {
            blocks.put(address, block);
            throw new IllegalArgumentException("direct allocator: block 0x" + Long.toHexString(address) + " has "
                    + block.bytes + " bytes aligned " + block.alignment + ", free was given " + bytes + "/" + alignment);
        }
        block.arena.close();
    }

    /** {@return how many blocks are allocated and not yet freed} */
    public int liveBlocks() {
        return blocks.size();
    }

    @Override
    public String name() {
        return "direct";
    }
}
