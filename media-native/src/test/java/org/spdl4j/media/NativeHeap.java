package org.spdl4j.media;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Bytes the C allocator has handed out and not taken back, from glibc's {@code mallinfo2()}: in-use chunks of every
 * arena plus mmapped ones. What FFmpeg's {@code av_malloc} and JavaCPP's pointers take lands here, and a leak of
 * them shows; unlike the resident set size, it does not move when the Java heap grows or shrinks, so a memory-flat
 * test does not fail because the collector committed another region. Empty where there is no glibc 2.33+.
 */
@SuppressWarnings("restricted") // a downcall to glibc; the test JVMs run with --enable-native-access
final class NativeHeap {
    private static final StructLayout MALLINFO2 = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("arena"), ValueLayout.JAVA_LONG.withName("ordblks"),
            ValueLayout.JAVA_LONG.withName("smblks"), ValueLayout.JAVA_LONG.withName("hblks"),
            ValueLayout.JAVA_LONG.withName("hblkhd"), ValueLayout.JAVA_LONG.withName("usmblks"),
            ValueLayout.JAVA_LONG.withName("fsmblks"), ValueLayout.JAVA_LONG.withName("uordblks"),
            ValueLayout.JAVA_LONG.withName("fordblks"), ValueLayout.JAVA_LONG.withName("keepcost"));
    private static final long HBLKHD = MALLINFO2.byteOffset(MemoryLayout.PathElement.groupElement("hblkhd"));
    private static final long UORDBLKS = MALLINFO2.byteOffset(MemoryLayout.PathElement.groupElement("uordblks"));
    private static final MethodHandle MALLINFO2_CALL = Linker.nativeLinker().defaultLookup().find("mallinfo2")
            .map(f -> Linker.nativeLinker().downcallHandle(f, FunctionDescriptor.of(MALLINFO2)))
            .orElse(null);

    private NativeHeap() {
    }

    /** {@return bytes malloc has in use now (all arenas, mmapped chunks included), or empty without mallinfo2} */
    static Optional<Long> inUseBytes() {
        if (MALLINFO2_CALL == null) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) { // its 80 bytes are in every reading alike
            MemorySegment info = (MemorySegment) MALLINFO2_CALL.invokeExact((SegmentAllocator) arena);
            return Optional.of(info.get(ValueLayout.JAVA_LONG, UORDBLKS) + info.get(ValueLayout.JAVA_LONG, HBLKHD));
        } catch (Throwable t) {
            throw new IllegalStateException("mallinfo2() failed", t);
        }
    }

    /**
     * {@return KiB for a memory-flat check: malloc's bytes in use where mallinfo2 exists, else the resident set size}
     * Collects first and has JavaCPP free the pointers collected, so that only memory something still holds counts.
     */
    static long footprintKib() throws java.io.IOException {
        for (int i = 0; i < 3; i++) { // pointers the collector found go to JavaCPP's queue on another thread
            System.gc();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            org.bytedeco.javacpp.Pointer.deallocateReferences(); // free them now, not when JavaCPP next allocates
        }
        Optional<Long> inUse = inUseBytes();
        return inUse.isPresent() ? inUse.get() / 1024 : Rss.kib();
    }

    /** {@return what {@link #footprintKib()} measures here, for assertion messages} */
    static String footprintName() {
        return MALLINFO2_CALL != null ? "malloc in-use growth (mallinfo2)" : "VmRSS growth";
    }
}
