package org.spdl4j.perf.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import jcuda.Pointer;
import org.spdl4j.cuda.Device;

/**
 * The host side of a benchmarked copy: {@code pinned} (the device's cuMemHostAlloc allocator), {@code pageable}
 * (ordinary native memory, the driver stages it through its own pinned buffer) or {@code heap} (a Java byte[],
 * which JCuda hands to the driver as a pageable array). Filled with a pattern so pages are touched and resident.
 */
final class CopySource implements AutoCloseable {
    private static final int ALIGNMENT = 4096;

    private final Device device;
    private final String kind;
    private final long bytes;
    private final long address;       // 0 for heap
    private final Arena arena;        // pageable only
    private final Pointer pointer;    // what JCuda's raw copy reads from

    CopySource(Device device, String kind, long bytes) {
        this.device = device;
        this.kind = kind;
        this.bytes = bytes;
        switch (kind) {
            case "pinned" -> {
                arena = null;
                address = device.hostAllocator().allocate(bytes, ALIGNMENT);
                pointer = Pointer.to(view(address, bytes).asByteBuffer());
            }
            case "pageable" -> {
                arena = Arena.ofShared();
                MemorySegment segment = arena.allocate(bytes, ALIGNMENT);
                address = segment.address();
                pointer = Pointer.to(segment.asByteBuffer());
            }
            case "heap" -> {
                arena = null;
                address = 0;
                byte[] array = new byte[Math.toIntExact(bytes)];
                java.util.Arrays.fill(array, (byte) 0x3C);
                pointer = Pointer.to(array);
            }
            default -> throw new IllegalArgumentException("memory must be pinned, pageable or heap, got " + kind);
        }
        if (address != 0) {
            view(address, bytes).fill((byte) 0x3C);
        }
    }

    @SuppressWarnings("restricted") // a view over memory this class allocated; the JVM runs with native access
    private static MemorySegment view(long address, long bytes) {
        return MemorySegment.ofAddress(address).reinterpret(bytes);
    }

    /** {@return the native address (pinned and pageable only)} */
    long address() {
        if (address == 0) {
            throw new IllegalStateException("a heap source has no stable native address");
        }
        return address;
    }

    Pointer pointer() {
        return pointer;
    }


    @Override
    public void close() {
        if (kind.equals("pinned")) {
            device.hostAllocator().free(address, bytes, ALIGNMENT);
        } else if (arena != null) {
            arena.close();
        }
    }
}
