package org.spdl4j.offheap;

import java.util.concurrent.ConcurrentHashMap;
import org.agrona.UnsafeApi;

/**
 * The default {@link MemoryAllocator}: plain native memory ({@code Unsafe.allocateMemory}, i.e. malloc), aligned as
 * asked (64 B by default, {@value OffHeapConfiguration#DMA_ALIGNMENT} B for DMA) by over-allocating and rounding up.
 *
 * <p><b>Residency:</b> pages are not touched here unless the allocator prefaults (by default it does not,
 * {@link OffHeapConfiguration#PREFAULT_DEFAULT}), so a block costs resident memory only as it is used: a pool whose
 * large size class is rarely needed stays small in RSS. Memory is not zeroed unless prefaulted (then it is, by the
 * prefault itself).
 *
 * <p><b>Thread safety:</b> thread-safe; the address-to-block map is a {@link ConcurrentHashMap}. Not for the hot
 * path: each call allocates a map entry.
 */
public final class DirectMemoryAllocator implements MemoryAllocator {
    /** A shared instance that does not prefault. */
    public static final DirectMemoryAllocator INSTANCE = new DirectMemoryAllocator();

    private final ConcurrentHashMap<Long, Block> blocks = new ConcurrentHashMap<>();
    private final boolean prefault;

    /**
     * One allocation: the raw pointer malloc returned and what was asked.
     *
     * @param raw       what {@code allocateMemory} returned (freed with {@code freeMemory})
     * @param bytes     bytes asked
     * @param alignment alignment asked
     */
    private record Block(long raw, long bytes, int alignment) {
    }

    /**
     * Creates an allocator that does not prefault ({@link OffHeapConfiguration#PREFAULT_DEFAULT}); prefer
     * {@link #INSTANCE}.
     */
    public DirectMemoryAllocator() {
        this(OffHeapConfiguration.PREFAULT_DEFAULT);
    }

    /**
     * Creates an allocator.
     *
     * @param prefault whether to touch (zero) every page of each block when allocating it
     */
    public DirectMemoryAllocator(boolean prefault) {
        this.prefault = prefault;
    }

    @Override
    public long allocate(long bytes, int alignment) {
        if (bytes <= 0 || Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("direct allocator: bytes must be > 0 and alignment a power of two, got "
                    + bytes + " bytes, alignment " + alignment);
        }
        final long raw;
        try {
            raw = UnsafeApi.allocateMemory(bytes + alignment - 1);
        } catch (OutOfMemoryError e) {
            final OutOfMemoryError named = new OutOfMemoryError("direct allocator: cannot allocate " + bytes
                    + " bytes aligned to " + alignment + " (" + e.getMessage() + "); lower the pool's size classes");
            named.initCause(e);
            throw named;
        }
        final long address = (raw + alignment - 1) & -(long) alignment;
        if (prefault) {
            UnsafeApi.setMemory(address, bytes, (byte) 0);
        }
        blocks.put(address, new Block(raw, bytes, alignment));
        return address;
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
        UnsafeApi.freeMemory(block.raw);
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
