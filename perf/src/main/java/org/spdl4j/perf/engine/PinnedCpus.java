package org.spdl4j.perf.engine;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.affinity.ThreadAffinity;

/**
 * Where the two threads of a hand-off benchmark run: unpinned by default, or the benchmark thread on one CPU set and
 * the echo thread (or the engine's source thread) on another. Written {@code -p pinTo=0:1}: benchmark thread on CPU
 * 0, echo on CPU 1 (a colon, not a comma, because JMH splits {@code -p} values at commas). Each side is a
 * {@link CpuSet} list without commas ({@code 0}, {@code 2-3}).
 *
 * <p>A refused pinning fails the run rather than measuring something else. The benchmark thread is pinned before each
 * iteration, outside the measurement, so the pin holds whichever worker thread JMH runs it on; that is after the echo
 * thread was started (trial setup), which matters since a thread inherits its creator's affinity. The first pinning
 * prints where the kernel says the thread now runs.
 */
@State(Scope.Benchmark)
public class PinnedCpus {
    /** {@code none}, or {@code <benchmark thread CPUs>:<echo thread CPUs>}, e.g. {@code 0:1}. */
    @Param({"none"})
    public String pinTo;

    private boolean reported;

    /** Pins the benchmark thread, if asked. */
    @Setup(Level.Iteration)
    public void pinBenchmarkThread() {
        CpuSet cpus = side(0);
        pin(cpus, "benchmark thread");
        if (cpus != null && !reported) {
            reported = true;
            System.out.println("pinTo " + pinTo + ": benchmark thread " + Thread.currentThread().getName()
                    + " runs on CPUs " + ThreadAffinity.currentThreadCpus().map(CpuSet::toString).orElse("?"));
        }
    }

    /** {@return the echo thread's CPUs, or {@code null} for unpinned} */
    CpuSet echoCpus() {
        return side(1);
    }

    /** Pins the calling echo thread, if asked: first thing on that thread. */
    void pinEchoThread() {
        pin(side(1), "echo thread");
    }

    private CpuSet side(int i) {
        if ("none".equals(pinTo)) {
            return null;
        }
        String[] sides = pinTo.split(":", -1);
        if (sides.length != 2) {
            throw new IllegalArgumentException("pinTo '" + pinTo + "' must be 'none' or '<cpus>:<cpus>', e.g. 0:1");
        }
        CpuSet set = CpuSet.parse(sides[i]);
        ThreadAffinity.problemWith(set).ifPresent(p -> {
            throw new IllegalArgumentException("pinTo '" + pinTo + "': " + p);
        });
        return set;
    }

    private static void pin(CpuSet cpus, String who) {
        StagePlacement.pin(cpus, who);
    }
}
