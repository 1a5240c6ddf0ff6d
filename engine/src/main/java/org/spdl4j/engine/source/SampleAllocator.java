package org.spdl4j.engine.source;

import java.nio.ByteBuffer;

/**
 * Where a {@link Sample}'s field bytes live: the one hook between sources and memory management.
 *
 * <p>Sources ask for a buffer of the exact size of a field (a file, a tar member, an HTTP body) and read into it
 * directly, so the bytes are copied once, from storage into the buffer. The default {@link #HEAP} gives heap buffers
 * and needs no release. {@link PooledSampleAllocator} puts the bytes in an off-heap pool's slabs (direct buffers,
 * bounded memory, leak reports) and takes them back in {@link #release}.
 *
 * <p><b>Contract:</b> implementations are thread-safe (readers on many threads allocate at once). {@link #allocate}
 * may block for back-pressure (a pool waiting for a free slab) but must not wait forever. Ownership of the buffer
 * passes to the {@link Sample} that holds it; {@link Sample#close()} calls {@link #release} exactly once per buffer.
 */
public interface SampleAllocator {
    /** Plain heap buffers; {@link #release} does nothing and the garbage collector reclaims them. */
    SampleAllocator HEAP = ByteBuffer::allocate;

    /**
     * Allocates a buffer for {@code size} bytes.
     *
     * @param size the number of bytes the caller will write, zero or more
     * @return a buffer with position 0 and limit {@code size} (capacity may be larger), contents unspecified
     * @throws IllegalStateException when the memory cannot be had in bounded time; the message names the allocator
     */
    ByteBuffer allocate(int size);

    /**
     * Takes back a buffer this allocator returned. Called once per buffer by its owner.
     *
     * @param buffer a buffer from {@link #allocate}; the caller must not touch it afterwards
     */
    default void release(ByteBuffer buffer) {
        // Heap memory: nothing to do.
    }
}
