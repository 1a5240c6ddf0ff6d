package org.spdl4j.offheap;

/**
 * Layout of a size class's memory: each class is one or a few chunks from the {@link MemoryAllocator}, each chunk
 * an array of slabs at a fixed stride.
 *
 * <pre>
 *  chunk base (aligned)                                   stride = align(slabBytes, alignment)
 *  |&lt;-------- stride --------&gt;|&lt;-------- stride --------&gt;|
 *  +-------------------+------+-------------------+------+-----
 *  | slab 0 (slabBytes)| pad  | slab 1            | pad  | ...   slab k at base + k * stride
 *  +-------------------+------+-------------------+------+-----
 *  a lease's bytes: [slab address, slab address + requested size)
 * </pre>
 * Every slab starts on an {@code alignment} boundary, so two slabs never share a cache line (64 B default) or a
 * page (4 KiB, DMA). There is no header: bookkeeping lives on the heap in {@link Lease}.
 */
public final class SlabDescriptor {
    private SlabDescriptor() {
    }

    /**
     * Distance between consecutive slabs.
     *
     * @param slabBytes bytes per slab
     * @param alignment slab alignment, a power of two
     * @return {@code slabBytes} rounded up to a multiple of {@code alignment}
     */
    public static long stride(int slabBytes, int alignment) {
        return ((long) slabBytes + alignment - 1) & -(long) alignment;
    }

    /**
     * How many slabs one chunk holds.
     *
     * @param stride        distance between slabs
     * @param count         slabs wanted in the whole class
     * @param maxChunkBytes largest allocation allowed
     * @return between 1 and {@code count}
     */
    public static int slabsPerChunk(long stride, int count, long maxChunkBytes) {
        return (int) Math.max(1, Math.min(count, maxChunkBytes / stride));
    }

    /**
     * Address of a slab inside its chunk.
     *
     * @param chunkBase    chunk address
     * @param indexInChunk slab index within the chunk
     * @param stride       distance between slabs
     * @return the slab's first byte
     */
    public static long slabAddress(long chunkBase, int indexInChunk, long stride) {
        return chunkBase + indexInChunk * stride;
    }
}
