package org.spdl4j.media;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.agrona.UnsafeApi;

/**
 * Native input memory fenced by inaccessible pages, for fuzz tests: {@code [guard page][data pages][guard page]},
 * mapped with {@code mmap} and the guards made {@code PROT_NONE}. {@link #atEnd} places an input so its last byte
 * touches the trailing guard, {@link #atStart} so its first byte follows the leading one: a decoder that reads one
 * byte outside its input faults at once (the JVM dies with SIGSEGV and the test run fails loudly) instead of reading
 * stale bytes of a larger buffer, which a plain oversized buffer would let pass unseen.
 *
 * <p>Linux (x86-64, aarch64) only, like the FFmpeg natives the tests load. One owner thread; {@link #close()} unmaps.
 */
@SuppressWarnings("restricted") // downcalls to libc's mmap/mprotect/munmap: the point of the class; tests run with
                                // --enable-native-access=ALL-UNNAMED (spdl4j.jvm.flags)
final class GuardedInput implements AutoCloseable {
    private static final int PROT_NONE = 0;
    private static final int PROT_READ_WRITE = 1 | 2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final long PAGE = 4096;
    private static final MethodHandle MMAP;
    private static final MethodHandle MPROTECT;
    private static final MethodHandle MUNMAP;

    static {
        Linker linker = Linker.nativeLinker();
        var libc = linker.defaultLookup();
        MMAP = linker.downcallHandle(libc.find("mmap").orElseThrow(),
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
        MPROTECT = linker.downcallHandle(libc.find("mprotect").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        MUNMAP = linker.downcallHandle(libc.find("munmap").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    }

    private final long base;
    private final long mapped;
    private final long dataStart;
    private final long dataEnd;

    /** @param capacity the largest input to place */
    GuardedInput(final int capacity) {
        final long data = (capacity + PAGE - 1) / PAGE * PAGE;
        mapped = data + 2 * PAGE;
        try {
            final MemorySegment m = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, mapped, PROT_READ_WRITE,
                    MAP_PRIVATE_ANONYMOUS, -1, 0L);
            base = m.address();
            if (base == -1L) {
                throw new IllegalStateException("mmap of " + mapped + " bytes failed");
            }
            protect(base, PROT_NONE);
            protect(base + PAGE + data, PROT_NONE);
        } catch (final Throwable t) {
            throw new IllegalStateException("cannot map guarded input memory", t);
        }
        dataStart = base + PAGE;
        dataEnd = dataStart + data;
    }

    private static void protect(final long address, final int prot) throws Throwable {
        final int rc = (int) MPROTECT.invokeExact(MemorySegment.ofAddress(address), PAGE, prot);
        if (rc != 0) {
            throw new IllegalStateException("mprotect failed at 0x" + Long.toHexString(address));
        }
    }

    /** {@return the address of {@code input}, copied so that its last byte is the last before the trailing guard} */
    long atEnd(final byte[] input) {
        return put(dataEnd - input.length, input);
    }

    /** {@return the address of {@code input}, copied right after the leading guard} */
    long atStart(final byte[] input) {
        return put(dataStart, input);
    }

    private long put(final long address, final byte[] input) {
        if (input.length > dataEnd - dataStart) {
            throw new IllegalArgumentException(input.length + " bytes do not fit " + (dataEnd - dataStart));
        }
        UnsafeApi.copyMemory(input, UnsafeApi.arrayBaseOffset(byte[].class), null, address, input.length);
        return address;
    }

    @Override
    public void close() {
        try {
            final int rc = (int) MUNMAP.invokeExact(MemorySegment.ofAddress(base), mapped);
            if (rc != 0) {
                throw new IllegalStateException("munmap failed");
            }
        } catch (final RuntimeException | Error e) {
            throw e;
        } catch (final Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
