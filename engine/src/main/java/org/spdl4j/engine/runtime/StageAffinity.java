package org.spdl4j.engine.runtime;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.affinity.AffinityException;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.affinity.ThreadAffinity;

/**
 * One stage's CPU pinning: each of the stage's threads calls {@link #pinCurrentThread()} once, first thing on its own
 * thread (affinity is set by a thread for itself: {@code sched_setaffinity(0, ...)}). A refusal never fails the
 * pipeline: the thread runs unpinned, and the stage logs ONE warning naming the stage, the set and the native error,
 * however many of its threads were refused.
 *
 * <p><b>Threading:</b> the stage's threads, concurrently, at start; counters are atomics (start-up only).
 */
public final class StageAffinity {
    private static final Logger LOG = LoggerFactory.getLogger(StageAffinity.class);

    /** Pins the calling thread: {@link ThreadAffinity#pinCurrentThread(CpuSet)}, or a test's stand-in. */
    @FunctionalInterface
    public interface Pinner {
        /**
         * Pins the calling thread.
         *
         * @param cpus the CPUs
         * @throws AffinityException when it cannot
         */
        void pin(CpuSet cpus) throws AffinityException;
    }

    /** The pinner of a real pipeline: the kernel's. */
    public static final Pinner KERNEL = ThreadAffinity::pinCurrentThread;

    private final String pipeline;
    private final String stage;
    private final CpuSet cpus; // null: unpinned
    private final Pinner pinner;
    private final AtomicInteger pinned = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicBoolean warned = new AtomicBoolean();
    private volatile String refusal; // the first refusal's text; volatile: read by other threads (stats, tests)

    /**
     * Describes one stage's pinning.
     *
     * @param pipeline the pipeline's name
     * @param stage    the stage's name
     * @param cpus     the CPUs, or {@code null} to leave the threads unpinned
     * @param pinner   how a thread pins itself ({@link #KERNEL})
     */
    public StageAffinity(String pipeline, String stage, CpuSet cpus, Pinner pinner) {
        this.pipeline = pipeline;
        this.stage = stage;
        this.cpus = cpus;
        this.pinner = pinner;
    }

    /**
     * Pins the calling thread to the stage's CPUs, if it has any. Never throws: a refusal leaves the thread unpinned
     * and, the first time for this stage, logs a warning.
     */
    public void pinCurrentThread() {
        if (cpus == null) {
            return;
        }
        try {
            pinner.pin(cpus);
            pinned.incrementAndGet();
            LOG.debug("pipeline '{}' stage '{}': thread {} pinned to CPUs {}", pipeline, stage,
                    Thread.currentThread().getName(), cpus);
        } catch (AffinityException | RuntimeException e) {
            if (warned.compareAndSet(false, true)) {
                refusal = e.getMessage();
                LOG.warn("pipeline '{}' stage '{}': could not pin its threads to CPUs {} ({}); they run unpinned. "
                        + "Check the CPUs are online and allowed to this process (taskset -cp <pid>, the cgroup's "
                        + "cpuset.cpus.effective), or remove the CPU set", pipeline, stage, cpus, e.getMessage());
            }
            refused.incrementAndGet(); // after the text: a reader that sees the count sees the refusal
        }
    }

    /**
     * {@return a task that pins its thread, then runs {@code body}} For threads the engine starts.
     *
     * @param body what the thread does once pinned
     */
    public Runnable around(Runnable body) {
        return cpus == null ? body : () -> {
            pinCurrentThread();
            body.run();
        };
    }

    /** {@return the stage's CPUs, or {@code null} if it is unpinned} */
    public CpuSet cpus() {
        return cpus;
    }

    /** {@return how many of the stage's threads pinned themselves} */
    public int pinnedThreads() {
        return pinned.get();
    }

    /** {@return how many of the stage's threads were refused and run unpinned} */
    public int refusedThreads() {
        return refused.get();
    }

    /** {@return the first refusal's text (the native error), or {@code null} if none was refused} */
    public String refusal() {
        return refusal;
    }
}
