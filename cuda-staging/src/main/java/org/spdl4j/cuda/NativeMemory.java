package org.spdl4j.cuda;

import java.lang.foreign.MemorySegment;

/**
 * Bulk copies between native addresses and views over them, for {@link HostDevice} and the host normalize kernel.
 * (Allocation is not here: host memory comes from off-heap's {@code DirectMemoryAllocator}.) Needs
 * {@code --enable-native-access=ALL-UNNAMED} (set by the project's JVM flags).
 *
 * <p>Thread-safe (stateless). {@link #copy} is per batch and allocates two short-lived segment views, which escape
 * analysis usually removes.
 */
@SuppressWarnings("restricted") // raw-address views are this class's purpose; the JVM runs with
                                // --enable-native-access=ALL-UNNAMED (root pom's spdl4j.jvm.flags)
final class NativeMemory {
    private NativeMemory() {
    }

    /**
     * Copies bytes between native addresses (regions must not overlap).
     *
     * @param src   source address
     * @param dst   destination address
     * @param bytes how many bytes
     */
    static void copy(long src, long dst, long bytes) {
        MemorySegment.copy(view(src, bytes), 0, view(dst, bytes), 0, bytes);
    }

    /**
     * A segment over native memory owned elsewhere (no bounds beyond {@code bytes}, no lifetime check).
     *
     * @param address first byte
     * @param bytes   length
     * @return the view
     */
    static MemorySegment view(long address, long bytes) {
        return MemorySegment.ofAddress(address).reinterpret(bytes);
    }
}
