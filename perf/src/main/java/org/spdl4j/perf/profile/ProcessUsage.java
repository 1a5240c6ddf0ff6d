package org.spdl4j.perf.profile;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * One reading of what the kernel counted for this whole JVM, from {@code getrusage(RUSAGE_SELF)} through an FFM
 * downcall: context switches (voluntary: a thread blocked or parked; involuntary: it was preempted, or yielded with
 * another thread runnable) and CPU time in user and kernel mode. The kernel sums these over every thread of the
 * process, those that have already exited included, so a reading taken after a benchmark's threads were joined
 * still holds their switches (a per-thread {@code /proc/self/task} reading would lose them).
 *
 * <p>{@code struct rusage} on 64-bit Linux (x86-64, aarch64): two {@code struct timeval}s (16 bytes each: seconds,
 * microseconds), then fourteen {@code long}s, of which {@code ru_nvcsw} and {@code ru_nivcsw} are the last two:
 * <pre>
 *   0 ru_utime  16 ru_stime  32 ru_maxrss ... 128 ru_nvcsw  136 ru_nivcsw   (144 bytes)
 * </pre>
 *
 * @param voluntary   voluntary context switches so far
 * @param involuntary involuntary context switches so far
 * @param userMicros  user-mode CPU time so far, microseconds
 * @param kernelMicros kernel-mode CPU time so far, microseconds
 */
record ProcessUsage(long voluntary, long involuntary, long userMicros, long kernelMicros) {
    /** {@code sizeof(struct rusage)} on 64-bit Linux. */
    static final int RUSAGE_BYTES = 144;
    static final long UTIME_OFFSET = 0;
    static final long STIME_OFFSET = 16;
    static final long NVCSW_OFFSET = 128;
    static final long NIVCSW_OFFSET = 136;
    private static final int RUSAGE_SELF = 0;
    private static final MethodHandle GETRUSAGE = lookup(); // null where unsupported

    @SuppressWarnings("restricted") // a downcall into libc: needs --enable-native-access (spdl4j.jvm.flags has it)
    private static MethodHandle lookup() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || ValueLayout.ADDRESS.byteSize() != 8) {
            return null;
        }
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        return libc.find("getrusage").map(f -> linker.downcallHandle(f,
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                .orElse(null);
    }

    /** {@return whether this system can be read (64-bit Linux)} */
    static boolean available() {
        return GETRUSAGE != null;
    }

    /**
     * Reads the counters now.
     *
     * @return the reading
     * @throws IllegalStateException if this is not 64-bit Linux, or the call failed
     */
    static ProcessUsage read() {
        if (GETRUSAGE == null) {
            throw new IllegalStateException("getrusage is read on 64-bit Linux only");
        }
        try (Arena arena = Arena.ofConfined()) { // allocates: called between iterations, never inside one
            MemorySegment usage = arena.allocate(RUSAGE_BYTES, 8);
            int rc = (int) GETRUSAGE.invokeExact(RUSAGE_SELF, usage);
            if (rc != 0) {
                throw new IllegalStateException("getrusage(RUSAGE_SELF) returned " + rc);
            }
            return of(usage);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("getrusage downcall failed: " + t, t);
        }
    }

    /**
     * Decodes a {@code struct rusage}.
     *
     * @param usage at least {@link #RUSAGE_BYTES} bytes, as {@code getrusage} filled them
     * @return the counters it holds
     */
    static ProcessUsage of(MemorySegment usage) {
        return new ProcessUsage(usage.get(ValueLayout.JAVA_LONG, NVCSW_OFFSET),
                usage.get(ValueLayout.JAVA_LONG, NIVCSW_OFFSET), micros(usage, UTIME_OFFSET),
                micros(usage, STIME_OFFSET));
    }

    private static long micros(MemorySegment usage, long timevalOffset) {
        return usage.get(ValueLayout.JAVA_LONG, timevalOffset) * 1_000_000L
                + usage.get(ValueLayout.JAVA_LONG, timevalOffset + 8);
    }

    /**
     * {@return what happened since {@code earlier}}
     *
     * @param earlier a reading taken before this one
     */
    ProcessUsage since(ProcessUsage earlier) {
        return new ProcessUsage(voluntary - earlier.voluntary, involuntary - earlier.involuntary,
                userMicros - earlier.userMicros, kernelMicros - earlier.kernelMicros);
    }

    /** {@return voluntary plus involuntary switches} */
    long switches() {
        return voluntary + involuntary;
    }

    /** {@return the share of the CPU time spent in the kernel, 0 to 1 (0 when no CPU time was used)} */
    double kernelShare() {
        long all = userMicros + kernelMicros;
        return all == 0 ? 0 : (double) kernelMicros / all;
    }
}
