package org.spdl4j.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.PipelineSpec;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.affinity.CpusAllowed;
import org.spdl4j.engine.affinity.ThreadAffinity;

/**
 * A pinning the kernel refuses. Validation keeps impossible sets out of a built pipeline, so the seam here swaps the
 * validated set for CPU 8191 right at the {@code sched_setaffinity} call: the refusal (EINVAL) is the kernel's own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RefusedAffinityTest {
    /** A CPU this process may use (CPU 0 is not in every container's or taskset's mask). */
    private static final int CPU = org.spdl4j.engine.affinity.ThreadAffinity.processCpus()
            .map(set -> set.toArray()[0]).orElse(0);
    private static final String CPU_NAME = Integer.toString(CPU);

    private static final List<Integer> ITEMS = IntStream.range(0, 2_000).boxed().toList();

    @Test
    void shouldRunUnpinnedAndDeliverEveryItemWhenTheKernelRefuses() throws Exception {
        assumeTrue(CpusAllowed.available(), "thread affinity is Linux only");
        String inherited = CpusAllowed.ofCurrentThread();
        Set<String> saw = ConcurrentHashMap.newKeySet();
        PipelineSpec spec = PipelineBuilder.fromIterable(ITEMS).named("refused")
                .pipe("spin", (Integer i) -> {
                    saw.add(CpusAllowed.ofCurrentThread());
                    return i + 1;
                }, StageOptions.defaults().withConcurrency(2).withWaitPolicy(WaitPolicy.BACKOFF)
                        .withCpus(CpuSet.of(CPU)))
                .spec();
        StageAffinity.Pinner offlineCpu = cpus -> ThreadAffinity.pinCurrentThread(CpuSet.of(CpuSet.MAX_CPU));
        List<Object> out = new ArrayList<>();
        try (PipelineRuntime runtime = new PipelineRuntime(spec, offlineCpu)) {
            Object item;
            while ((item = runtime.next(TimeUnit.SECONDS.toNanos(30))) != null) {
                out.add(item);
            }
            List<StageAffinity> affinities = runtime.affinities();
            assertThat(affinities).hasSize(2);
            StageAffinity source = affinities.get(0);
            StageAffinity stage = affinities.get(1);
            assertThat(source.cpus()).isNull();
            assertThat(source.refusedThreads()).isZero();
            assertThat(stage.cpus()).isEqualTo(CpuSet.of(CPU));
            assertThat(stage.refusedThreads()).isEqualTo(2);
            assertThat(stage.pinnedThreads()).isZero();
            assertThat(stage.refusal()).contains("sched_setaffinity(8191) failed", "Invalid argument (errno 22)");
        }
        assertThat(out).containsExactlyInAnyOrderElementsOf(ITEMS.stream().map(i -> (Object) (i + 1)).toList());
        assertThat(saw).containsExactly(inherited);
    }

    @Test
    void shouldCountPinnedThreadsWhenTheKernelAgrees() throws Exception {
        assumeTrue(CpusAllowed.available(), "thread affinity is Linux only");
        PipelineSpec spec = PipelineBuilder.fromIterable(ITEMS).named("agreed").sourceCpus(CpuSet.of(CPU))
                .pipe("spin", (Integer i) -> i, StageOptions.defaults().withConcurrency(2).withCpus(CpuSet.of(CPU)))
                .spec();
        try (PipelineRuntime runtime = new PipelineRuntime(spec)) {
            int n = 0;
            while (runtime.next(TimeUnit.SECONDS.toNanos(30)) != null) {
                n++;
            }
            assertThat(n).isEqualTo(ITEMS.size());
            assertThat(runtime.affinities()).extracting(StageAffinity::pinnedThreads).containsExactly(1, 2);
            assertThat(runtime.affinities()).extracting(StageAffinity::refusal).containsOnlyNulls();
        }
    }
}
