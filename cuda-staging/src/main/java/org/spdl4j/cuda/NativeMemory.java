package org.spdl4j.cuda;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Plain native memory through the C library (FFM downcalls to {@code aligned_alloc} and {@code free}) and bulk
 * copies between native addresses. Backs {@link HostDevice} and the host allocator it offers; needs
 * {@code --enable-native-access=ALL-UNNAMED} (set by the project's JVM flags).
 *
 * <p>Thread-safe (stateless). Allocation calls are rare (pool misses); {@link #copy} is per batch and allocates two
 * short-lived segment views, which escape analysis usually removes.
 */
@SuppressWarnings("restricted") // native downcalls and raw-address views are this class's purpose; the JVM runs
                                // with --enable-native-access=ALL-UNNAMED (root pom's spdl4j.jvm.flags)
final class NativeMemory {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle ALIGNED_ALLOC = LINKER.downcallHandle(
            LINKER.defaultLookup().find("aligned_alloc").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle FREE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("free").orElseThrow(),
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));

    private NativeMemory() {
    }

    /**
     * Allocates native memory.
     *
     * @param bytes     size, greater than zero
     * @param alignment a power of two
     * @param owner     named in the error message
     * @return the address
     * @throws OutOfMemoryError when the C library has none
     */
    static long allocate(long bytes, long alignment, String owner) {
        if (bytes <= 0 || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException(owner + ": bad size " + bytes + " or alignment " + alignment);
        }
        long align = Math.max(alignment, 16);
        long size = (bytes + align - 1) & -align; // C11: the size must be a multiple of the alignment
        MemorySegment block;
        try {
            block = (MemorySegment) ALIGNED_ALLOC.invokeExact(align, size);
        } catch (Throwable t) {
            throw new IllegalStateException(owner + ": aligned_alloc downcall failed", t);
        }
        if (block.address() == 0) {
            throw new OutOfMemoryError(owner + ": aligned_alloc(" + align + ", " + size + ") returned NULL");
        }
        return block.address();
    }

    /**
     * Frees memory from {@link #allocate}.
     *
     * @param address the address it returned
     */
    static void free(long address) {
        try {
            FREE.invokeExact(MemorySegment.ofAddress(address));
        } catch (Throwable t) {
            throw new IllegalStateException("free downcall failed for 0x" + Long.toHexString(address), t);
        }
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
