package org.spdl4j.engine.affinity;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * glibc's {@code sched_setaffinity} / {@code sched_getaffinity} for the calling thread ({@code pid 0}), and
 * {@code sched_getaffinity} for the process ({@code getpid()}: the thread-group leader), through FFM
 * downcalls, with {@code errno} captured by the linker (a later JVM call could overwrite the thread's errno before
 * Java reads it) and turned into text by {@code strerror}.
 *
 * <p>The mask is a {@code cpu_set_t}: CPU {@code c} at bit {@code c % 64} of the {@code c / 64}-th 64-bit word,
 * little-endian on x86-64 and aarch64, so {@link CpuSet#toMaskWords()} is its memory image:
 * <pre>
 *   byte 0         byte 7   byte 8  ...
 *   [CPUs 0..63, LSB first ][CPUs 64..127 ] ...   (at least 128 bytes = 1024 CPUs, the glibc default)
 * </pre>
 *
 * <p><b>Threading:</b> pinning and {@link #currentThreadCpus()} act on the calling thread only,
 * {@link #processCpus()} reads the process's mask; the handles are immutable, safe to share.
 * <b>Allocation:</b> a confined arena per call (start-up only, never on a hot path).
 */
@SuppressWarnings("restricted") // downcalls into libc: needs --enable-native-access (spdl4j.jvm.flags has it)
final class LinuxAffinity {
    /** glibc's {@code sizeof(cpu_set_t)}: the smallest mask passed, in bytes. */
    private static final int MIN_MASK_BYTES = 128;
    /** Largest mask tried by {@link #currentThreadCpus()}: {@link CpuSet#MAX_CPU} + 1 bits. */
    private static final int MAX_MASK_BYTES = (CpuSet.MAX_CPU + 1) / 8;
    private static final int EINVAL = 22;

    private final MethodHandle setAffinity; // int (capture, pid_t, size_t, cpu_set_t*)
    private final MethodHandle getAffinity; // int (capture, pid_t, size_t, cpu_set_t*)
    private final MethodHandle strerror;    // char* (int)
    private final MemoryLayout captureLayout = Linker.Option.captureStateLayout();
    private final VarHandle errno = captureLayout.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private LinuxAffinity(SymbolLookup libc, Linker linker) {
        FunctionDescriptor affinity = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
        Linker.Option captureErrno = Linker.Option.captureCallState("errno");
        this.setAffinity = linker.downcallHandle(libc.find("sched_setaffinity").orElseThrow(), affinity,
                captureErrno);
        this.getAffinity = linker.downcallHandle(libc.find("sched_getaffinity").orElseThrow(), affinity,
                captureErrno);
        this.strerror = linker.downcallHandle(libc.find("strerror").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    }

    /**
     * {@return the calls, or {@code null} when this is not 64-bit Linux or libc lacks them (the reason is thrown
     * away: the caller reports "unsupported")}
     */
    static LinuxAffinity loadOrNull() {
        if (!System.getProperty("os.name", "").startsWith("Linux") || ValueLayout.ADDRESS.byteSize() != 8) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return new LinuxAffinity(linker.defaultLookup(), linker);
        } catch (RuntimeException | LinkageError e) { // no symbol, or native access denied
            return null;
        }
    }

    /**
     * Pins the calling thread to {@code cpus}.
     *
     * @param cpus the CPUs, not empty
     * @throws AffinityException with the errno and its text when the kernel refuses
     */
    void pinCurrentThread(CpuSet cpus) throws AffinityException {
        long[] words = cpus.toMaskWords();
        int bytes = Math.max(MIN_MASK_BYTES, words.length * Long.BYTES);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(bytes, Long.BYTES);
            MemorySegment.copy(words, 0, mask, ValueLayout.JAVA_LONG, 0, words.length);
            MemorySegment capture = arena.allocate(captureLayout);
            int rc = (int) setAffinity.invokeExact(capture, 0, (long) bytes, mask);
            if (rc != 0) {
                int e = (int) errno.get(capture, 0L);
                throw new AffinityException("sched_setaffinity(" + cpus + ") failed: " + describe(e), e);
            }
        } catch (AffinityException e) {
            throw e;
        } catch (Throwable t) { // invokeExact declares Throwable; a downcall with these types throws nothing else
            throw new AffinityException("sched_setaffinity(" + cpus + ") could not be called: " + t,
                    AffinityException.NO_ERRNO);
        }
    }

    /**
     * {@return the CPUs the calling thread may run on}
     *
     * @throws AffinityException with the errno and its text when the call fails
     */
    CpuSet currentThreadCpus() throws AffinityException {
        return cpusOf(0, "sched_getaffinity");
    }

    /**
     * {@return the CPUs this process may run on: the mask of its thread-group leader ({@code
     * sched_getaffinity(getpid())}, what {@code taskset -p <pid>} shows)} That is the mask the process was started
     * with (taskset, numactl), narrowed by its cgroup's cpuset; it does not change when engine threads pin
     * themselves (the leader is the launcher's thread, never an engine thread), so it does not depend on which
     * thread asks.
     *
     * @throws AffinityException with the errno and its text when the call fails
     */
    CpuSet processCpus() throws AffinityException {
        long pid = ProcessHandle.current().pid();
        return cpusOf((int) pid, "sched_getaffinity(" + pid + ")"); // pid_t is an int; Linux pids fit (<= 2^22)
    }

    private CpuSet cpusOf(int pid, String call) throws AffinityException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = arena.allocate(captureLayout);
            for (int bytes = MIN_MASK_BYTES; ; bytes *= 2) {
                MemorySegment mask = arena.allocate(bytes, Long.BYTES);
                int rc = (int) getAffinity.invokeExact(capture, pid, (long) bytes, mask);
                if (rc == 0) {
                    return CpuSet.fromMaskWords(mask.toArray(ValueLayout.JAVA_LONG));
                }
                int e = (int) errno.get(capture, 0L);
                if (e != EINVAL || bytes >= MAX_MASK_BYTES) { // EINVAL: the kernel has more CPUs than the mask
                    throw new AffinityException(call + " failed: " + describe(e), e);
                }
            }
        } catch (AffinityException e) {
            throw e;
        } catch (Throwable t) { // as in pinCurrentThread
            throw new AffinityException(call + " could not be called: " + t, AffinityException.NO_ERRNO);
        }
    }

    /**
     * {@return {@code strerror(e)} and the number, e.g. "Invalid argument (errno 22)"} glibc's strerror returns a
     * constant string for every known errno (a shared buffer only for unknown ones, which we copy at once).
     */
    private String describe(int e) {
        try {
            MemorySegment text = (MemorySegment) strerror.invokeExact(e);
            return text.reinterpret(256).getString(0) + " (errno " + e + ")";
        } catch (Throwable t) { // no text: the number still says what failed
            return "errno " + e;
        }
    }
}
