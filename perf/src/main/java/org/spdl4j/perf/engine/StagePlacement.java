package org.spdl4j.perf.engine;

import org.spdl4j.engine.affinity.AffinityException;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.affinity.ThreadAffinity;

/**
 * Where the four threads of a throughput pipeline run (source, first map, second map, consumer), the same for every
 * variant so that they compare like for like. Written {@code none} (the scheduler places them) or as four CPU lists
 * separated by colons, {@code source:map1:map2:consumer} (colons because JMH splits {@code -p} values at commas),
 * e.g. {@code 0:0:1:1}: each pair of neighbours shares a CPU, so only the middle link crosses between CPUs.
 *
 * <p>A refused pinning fails the run rather than measuring something else. Immutable; any thread.
 */
final class StagePlacement {
    /** The scheduler's placement. */
    static final StagePlacement NONE = new StagePlacement(null);

    private final CpuSet[] cpus; // null: unpinned

    private StagePlacement(CpuSet[] cpus) {
        this.cpus = cpus;
    }

    /**
     * Parses a placement.
     *
     * @param text {@code none} or {@code source:map1:map2:consumer}
     * @return the placement
     * @throws IllegalArgumentException if malformed or naming CPUs this process may not use
     */
    static StagePlacement parse(String text) {
        if ("none".equals(text)) {
            return NONE;
        }
        String[] parts = text.split(":", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("placement '" + text
                    + "' must be 'none' or four CPU lists 'source:map1:map2:consumer', e.g. 0:0:1:1");
        }
        CpuSet[] sets = new CpuSet[4];
        for (int i = 0; i < 4; i++) {
            sets[i] = CpuSet.parse(parts[i]);
            ThreadAffinity.problemWith(sets[i]).ifPresent(p -> {
                throw new IllegalArgumentException("placement '" + text + "': " + p);
            });
        }
        return new StagePlacement(sets);
    }

    /** {@return the source thread's CPUs, {@code null} when unpinned} */
    CpuSet source() {
        return cpus == null ? null : cpus[0];
    }

    /** {@return the first map's CPUs, {@code null} when unpinned} */
    CpuSet map1() {
        return cpus == null ? null : cpus[1];
    }

    /** {@return the second map's CPUs, {@code null} when unpinned} */
    CpuSet map2() {
        return cpus == null ? null : cpus[2];
    }

    /** {@return the consumer's CPUs, {@code null} when unpinned} */
    CpuSet consumer() {
        return cpus == null ? null : cpus[3];
    }

    /**
     * Pins the calling thread, first thing on it; nothing when {@code set} is {@code null}.
     *
     * @param set the CPUs, or {@code null}
     * @param who the thread's role, for the error
     * @throws IllegalStateException when the kernel refuses
     */
    static void pin(CpuSet set, String who) {
        if (set == null) {
            return;
        }
        try {
            ThreadAffinity.pinCurrentThread(set);
        } catch (AffinityException e) {
            throw new IllegalStateException("cannot pin the " + who + " to CPUs " + set + ": " + e.getMessage(), e);
        }
    }
}
