package org.spdl4j.offheap;

/**
 * Where a buffer pool's slabs come from: plain direct memory by default, CUDA pinned host memory from cuda-staging.
 *
 * <p><b>Contract:</b> called rarely (at pool start and close), never on the hot path, so implementations may lock
 * and allocate. {@link #allocate} returns memory that stays valid and fixed in place until {@link #free} is called
 * with the same address and size; it is not zeroed unless the implementation says so. Implementations are
 * thread-safe.
 */
public interface MemoryAllocator {
    /**
     * Allocates {@code bytes} of native memory whose address is a multiple of {@code alignment}.
     *
     * @param bytes     how many bytes, greater than zero
     * @param alignment required alignment of the returned address, a power of two
     * @return the address of the block
     * @throws OutOfMemoryError when the memory cannot be had; the message names this allocator and the size
     */
    long allocate(long bytes, int alignment);

    /**
     * Frees a block returned by {@link #allocate}.
     *
     * @param address   the address {@link #allocate} returned
     * @param bytes     the size given to {@link #allocate}
     * @param alignment the alignment given to {@link #allocate}
     */
    void free(long address, long bytes, int alignment);

    /** {@return a short name for messages and stats, such as "direct" or "cuda-pinned"} */
    String name();

    /** {@return true when memory from this allocator can be the source of an asynchronous DMA copy to a GPU} */
    default boolean isPinned() {
        return false;
    }
}
