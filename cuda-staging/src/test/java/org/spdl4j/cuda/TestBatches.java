package org.spdl4j.cuda;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.spdl4j.offheap.MemoryAllocator;

/** Host memory for tests: blocks from a device's host allocator, filled with known bytes, freed on release. */
final class TestBatches {
    static final int ALIGNMENT = 4096;

    private final MemoryAllocator allocator;
    final AtomicInteger released = new AtomicInteger();

    TestBatches(Device device) {
        this.allocator = device.hostAllocator();
    }

    /** A host batch of random bytes; {@code expected} receives a copy of them. Release frees the block. */
    HostBatch random(TensorSpec spec, long seed, byte[] expected) {
        long bytes = spec.byteSize();
        long address = allocator.allocate(bytes, ALIGNMENT);
        MemorySegment block = NativeMemory.view(address, bytes);
        SplittableRandom random = new SplittableRandom(seed);
        for (long i = 0; i < bytes; i++) {
            byte b = (byte) random.nextInt(256);
            block.set(ValueLayout.JAVA_BYTE, i, b);
            if (expected != null) {
                expected[(int) i] = b;
            }
        }
        return HostBatch.of(address, spec, () -> {
            allocator.free(address, bytes, ALIGNMENT);
            released.incrementAndGet();
        });
    }

    /** Copies a device buffer back into a fresh byte array (blocking). */
    static byte[] readBack(Device device, DeviceBuffer buffer, long bytes) {
        MemoryAllocator allocator = device.hostAllocator();
        long host = allocator.allocate(bytes, ALIGNMENT);
        try (DeviceStream stream = device.createStream()) {
            device.copyToHost(buffer, host, bytes, stream);
            stream.synchronize();
            return NativeMemory.view(host, bytes).toArray(ValueLayout.JAVA_BYTE);
        } finally {
            allocator.free(host, bytes, ALIGNMENT);
        }
    }

    /** Reads back float32 values. */
    static float[] readFloats(Device device, DeviceBuffer buffer, long count) {
        byte[] raw = readBack(device, buffer, count * Float.BYTES);
        return MemorySegment.ofArray(raw).toArray(ValueLayout.JAVA_FLOAT_UNALIGNED);
    }
}
