package org.spdl4j.engine.source;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/** A direct-memory allocator for tests that tracks every buffer out and fails on a double or foreign release. */
public final class CountingAllocator implements SampleAllocator {
    private final Set<ByteBuffer> out = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    private final java.util.concurrent.atomic.AtomicLong allocations = new java.util.concurrent.atomic.AtomicLong();

    @Override
    public ByteBuffer allocate(int size) {
        ByteBuffer b = ByteBuffer.allocateDirect(size);
        allocations.incrementAndGet();
        out.add(b);
        return b;
    }

    @Override
    public void release(ByteBuffer buffer) {
        if (!out.remove(buffer)) {
            throw new AssertionError("released a buffer that is not out (double release?)");
        }
    }

    /** {@return every buffer allocated so far, released or not} */
    public long allocations() {
        return allocations.get();
    }

    /** {@return the buffers allocated and not yet released} */
    public int outstanding() {
        return out.size();
    }
}
