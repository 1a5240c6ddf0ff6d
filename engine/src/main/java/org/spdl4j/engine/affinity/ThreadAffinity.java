package org.spdl4j.engine.affinity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * Pins the calling thread to a {@link CpuSet} and reads back where it may run. Linux only (glibc
 * {@code sched_setaffinity}/{@code sched_getaffinity} through FFM, see {@link #isSupported()}); elsewhere pinning
 * throws {@link AffinityException} and reading returns empty, so callers run unpinned.
 *
 * <p>What it is for: a busy-spinning stage on a core reserved for it (e.g. {@code isolcpus}, or a cgroup that keeps
 * other work away) stops being migrated and keeps its caches warm. Pinning more spinning threads than cores, or
 * pinning to cores other work uses, is usually slower than letting the scheduler place threads.
 *
 * <p>A new thread inherits the affinity of the thread that creates it: pin a thread after it has started the threads
 * that should not share its CPUs.
 *
 * <p><b>Threading:</b> every method acts on the calling thread only; safe from any thread. <b>Blocking:</b> one system
 * call. <b>Allocation:</b> a small native mask per call: for start-up, not for a hot path.
 */
public final class ThreadAffinity {
    private static final LinuxAffinity LINUX = LinuxAffinity.loadOrNull();
    private static final int CPU_COUNT = countCpus();

    private ThreadAffinity() {
    }

    /** {@return whether this platform can pin threads (64-bit Linux with glibc, native access enabled)} */
    public static boolean isSupported() {
        return LINUX != null;
    }

    /**
     * Pins the calling thread to {@code cpus}: from now on the kernel runs it only on those CPUs.
     *
     * @param cpus the CPUs, not empty
     * @throws AffinityException when the kernel refuses (e.g. EINVAL: no CPU of the set is online or in this
     *                           process's cpuset), or on a platform without affinity; the thread is left as it was
     */
    public static void pinCurrentThread(CpuSet cpus) throws AffinityException {
        if (cpus.isEmpty()) {
            throw new AffinityException("cannot pin to an empty CPU set", AffinityException.NO_ERRNO);
        }
        if (LINUX == null) {
            throw new AffinityException("thread affinity is not supported on " + System.getProperty("os.name")
                    + " " + System.getProperty("os.arch") + " (64-bit Linux only)", AffinityException.NO_ERRNO);
        }
        LINUX.pinCurrentThread(cpus);
    }

    /** {@return the CPUs the calling thread may run on, or empty on a platform without affinity or on failure} */
    public static Optional<CpuSet> currentThreadCpus() {
        if (LINUX == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(LINUX.currentThreadCpus());
        } catch (AffinityException e) {
            return Optional.empty();
        }
    }

    /**
     * {@return the CPUs this process may run on (Linux: {@code sched_getaffinity} of the process, i.e. its
     * taskset/numactl mask narrowed by its cgroup's cpuset), or empty on a platform without affinity or on failure}
     * Read at each call (a cgroup's cpuset may change while the process runs); one system call. Does not depend on
     * the calling thread's own pinning.
     */
    public static Optional<CpuSet> processCpus() {
        if (LINUX == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(LINUX.processCpus());
        } catch (AffinityException e) {
            return Optional.empty();
        }
    }

    /**
     * {@return the CPUs the machine has: the highest present CPU + 1 on Linux ({@code
     * /sys/devices/system/cpu/present}), else {@link Runtime#availableProcessors()}} Read once. Counts the machine's
     * CPUs, not the ones this process may use ({@link #processCpus()}).
     */
    public static int cpuCount() {
        return CPU_COUNT;
    }

    /**
     * Checks a set a thread is to be pinned to against the CPUs this process may run on ({@link #processCpus()}),
     * or, where those cannot be read (not Linux, or the query failed), against the machine's {@link #cpuCount()}.
     *
     * @param cpus the set
     * @return what is wrong with it and what to do (empty set, CPU outside the process's affinity, CPU the machine
     *         does not have), or empty if it can be tried
     */
    public static Optional<String> problemWith(CpuSet cpus) {
        return problemWith(cpus, processCpus().orElse(null), CPU_COUNT);
    }

    /**
     * {@link #problemWith(CpuSet)} against given limits.
     *
     * @param cpus     the set
     * @param allowed  the CPUs the process may run on, or {@code null} when unknown
     * @param cpuCount the machine's CPUs, the check when {@code allowed} is unknown
     * @return the problem, or empty
     */
    static Optional<String> problemWith(CpuSet cpus, CpuSet allowed, int cpuCount) {
        if (cpus.isEmpty()) {
            return Optional.of("CPU set is empty; name at least one CPU, or leave the threads unpinned");
        }
        if (allowed != null) {
            int[] outside = Arrays.stream(cpus.toArray()).filter(c -> !allowed.contains(c)).toArray();
            if (outside.length == 0) {
                return Optional.empty();
            }
            return Optional.of("CPU set " + cpus + " names " + (outside.length == 1 ? "CPU " : "CPUs ")
                    + CpuSet.of(outside) + " outside the CPUs this process may run on, " + allowed
                    + " (its affinity mask: taskset/numactl at launch, narrowed by the cgroup's cpuset). Pin to CPUs "
                    + "within " + allowed + ", widen the process's CPUs (taskset -a -cp <cpus> <pid>, or the "
                    + "container's cpuset), or leave the threads unpinned");
        }
        if (cpus.highest() >= cpuCount) {
            return Optional.of("CPU set " + cpus + " names CPU " + cpus.highest() + " but this machine has "
                    + cpuCount + " CPU(s), 0-" + (cpuCount - 1));
        }
        return Optional.empty();
    }

    private static int countCpus() {
        int available = Runtime.getRuntime().availableProcessors();
        try {
            CpuSet present = CpuSet.parse(Files.readString(Path.of("/sys/devices/system/cpu/present")).strip());
            return Math.max(available, present.highest() + 1);
        } catch (IOException | IllegalArgumentException | SecurityException e) { // not Linux, or no sysfs
            return available;
        }
    }
}
