package org.spdl4j.engine.affinity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
     * {@return the CPUs the machine has: the highest present CPU + 1 on Linux ({@code
     * /sys/devices/system/cpu/present}), else {@link Runtime#availableProcessors()}} Read once. Counts the machine's
     * CPUs, not the ones this process may use: a CPU outside the process's cpuset passes {@link #problemWith} and is
     * refused when a thread pins to it.
     */
    public static int cpuCount() {
        return CPU_COUNT;
    }

    /**
     * Checks a set a thread is to be pinned to against this machine.
     *
     * @param cpus the set
     * @return what is wrong with it (empty set, CPU the machine does not have), or empty if it can be tried
     */
    public static Optional<String> problemWith(CpuSet cpus) {
        if (cpus.isEmpty()) {
            return Optional.of("CPU set is empty; name at least one CPU, or leave the threads unpinned");
        }
        if (cpus.highest() >= CPU_COUNT) {
            return Optional.of("CPU set " + cpus + " names CPU " + cpus.highest() + " but this machine has "
                    + CPU_COUNT + " CPU(s), 0-" + (CPU_COUNT - 1));
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
