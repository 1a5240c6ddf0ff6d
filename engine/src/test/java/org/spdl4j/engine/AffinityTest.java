package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.affinity.CpusAllowed;
import org.spdl4j.engine.affinity.ThreadAffinity;

/** CPU pinning of pipeline threads, checked against the kernel's own report from inside each thread. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AffinityTest {
    /** A CPU this process may use (CPU 0 is not in every container's or taskset's mask). */
    private static final int CPU = org.spdl4j.engine.affinity.ThreadAffinity.processCpus()
            .map(set -> set.toArray()[0]).orElse(0);
    private static final String CPU_NAME = Integer.toString(CPU);

    private static final List<Integer> ITEMS = IntStream.range(0, 200).boxed().toList();

    @Test
    void shouldRunAPinnedStageOnlyOnItsCpusAndLeaveOthersWhereTheyWere() throws Exception {
        assumeTrue(CpusAllowed.available(), "thread affinity is Linux only");
        String inherited = CpusAllowed.ofCurrentThread(); // unpinned engine threads inherit the starting thread's
        Set<String> pinnedSaw = ConcurrentHashMap.newKeySet();
        Set<String> unpinnedSaw = ConcurrentHashMap.newKeySet();
        Set<String> sourceSaw = ConcurrentHashMap.newKeySet();
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(new java.util.function.Supplier<Integer>() {
                    private int next;

                    @Override
                    public Integer get() {
                        sourceSaw.add(CpusAllowed.ofCurrentThread());
                        return next < ITEMS.size() ? ITEMS.get(next++) : null;
                    }
                })
                .named("pin").sourceCpus(CpuSet.of(CPU))
                .pipe("pinned", (Integer i) -> {
                    pinnedSaw.add(CpusAllowed.ofCurrentThread());
                    return i;
                }, StageOptions.defaults().withConcurrency(2).withCpus(CpuSet.of(CPU)))
                .pipe("free", (Integer i) -> {
                    unpinnedSaw.add(CpusAllowed.ofCurrentThread());
                    return i;
                }, StageOptions.defaults())
                .build()) {
            for (Integer i : p) {
                out.add(i);
            }
        }
        assertThat(out).containsExactlyInAnyOrderElementsOf(ITEMS);
        assertThat(pinnedSaw).containsExactly(CPU_NAME);
        assertThat(sourceSaw).containsExactly(CPU_NAME);
        assertThat(unpinnedSaw).containsExactly(inherited);
        if (Runtime.getRuntime().availableProcessors() > 1) {
            assertThat(inherited).as("the test thread may use every CPU").isNotEqualTo(CPU_NAME);
        }
    }

    @Test
    void shouldPinEachThreadOfAStageToTheWholeSet() throws Exception {
        assumeTrue(CpusAllowed.available(), "thread affinity is Linux only");
        CpuSet all = ThreadAffinity.processCpus().orElseThrow();
        Set<String> saw = ConcurrentHashMap.newKeySet();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(ITEMS).named("pin-all")
                .pipe("spread", (Integer i) -> {
                    saw.add(CpusAllowed.ofCurrentThread());
                    return i;
                }, StageOptions.defaults().withConcurrency(2).withCpus(all))
                .build()) {
            assertThat(p.spec().toString()).contains("cpus " + all);
            int n = 0;
            while (p.next(Duration.ofSeconds(30)) != null) {
                n++;
            }
            assertThat(n).isEqualTo(ITEMS.size());
        }
        assertThat(saw).containsExactly(all.toString());
    }

    @Test
    void shouldRejectCpusTheProcessCannotUseNamingTheStage() {
        int n = ThreadAffinity.cpuCount();
        int first = ThreadAffinity.processCpus().map(c -> c.toArray()[0]).orElse(0);
        String why = ThreadAffinity.processCpus().map(c -> " outside the CPUs this process may run on, " + c)
                .orElse(" but this machine has " + n + " CPU(s)"); // off Linux: the machine's count
        assertThatThrownBy(() -> PipelineBuilder.fromIterable(ITEMS).named("bad-cpus")
                .sourceCpus(CpuSet.of(n + 3))
                .pipe("decode", (Integer i) -> i, StageOptions.defaults().withCpus(CpuSet.of(first, n)))
                .pipe("empty", (Integer i) -> i, StageOptions.defaults().withCpus(CpuSet.of()))
                .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stage 'decode': CPU set " + CpuSet.of(first, n) + " names CPU " + n + why)
                .hasMessageContaining("stage 'empty': CPU set is empty")
                .hasMessageContaining("source 'source': CPU set " + (n + 3) + " names CPU " + (n + 3));
    }

    @Test
    void shouldRejectACpuOutsideTheProcessAffinityMaskAtBuildSayingWhatIsAllowed() {
        assumeTrue(CpusAllowed.available(), "thread affinity is Linux only");
        CpuSet allowed = ThreadAffinity.processCpus().orElseThrow();
        assertThat(allowed).hasToString(CpusAllowed.ofProcess()); // the kernel's own report of the process's mask
        int outside = 0;
        while (allowed.contains(outside)) {
            outside++; // the lowest CPU the process may not use: inside the machine when a cpuset or taskset narrows it
        }
        int cpu = outside;
        assertThatThrownBy(() -> PipelineBuilder.fromIterable(ITEMS).named("outside-mask")
                .pipe("decode", (Integer i) -> i, StageOptions.defaults().withCpus(CpuSet.of(cpu)))
                .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid pipeline 'outside-mask'")
                .hasMessageContaining("stage 'decode': CPU set " + cpu + " names CPU " + cpu
                        + " outside the CPUs this process may run on, " + allowed)
                .hasMessageContaining("Pin to CPUs within " + allowed);
    }
}
