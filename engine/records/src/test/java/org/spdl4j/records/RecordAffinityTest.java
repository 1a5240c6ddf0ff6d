package org.spdl4j.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.affinity.CpusAllowed;
import org.spdl4j.engine.affinity.ThreadAffinity;

/** CPU pinning of a record pipeline's threads by name, checked against the kernel's own report from each thread. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecordAffinityTest {
    /** A CPU this process may use (CPU 0 is not in every container's or taskset's mask). */
    private static final int CPU = ThreadAffinity.processCpus().map(set -> set.toArray()[0]).orElse(0);
    private static final String CPU_NAME = Integer.toString(CPU);

    @Test
    void shouldPinRecordPipelineThreadsByName() throws Exception {
        assumeTrue(CpusAllowed.available(), "thread affinity is Linux only");
        String inherited = CpusAllowed.ofCurrentThread();
        Set<String> stageSaw = ConcurrentHashMap.newKeySet();
        Set<String> consumerSaw = ConcurrentHashMap.newKeySet();
        Set<String> sourceSaw = ConcurrentHashMap.newKeySet();
        long[] sent = {0};
        long[] received = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("pin-records").recordLength(8).ringCapacity(64)
                .source(rec -> {
                    sourceSaw.add(CpusAllowed.ofCurrentThread());
                    rec.putLong(0, sent[0]);
                    return ++sent[0] <= 500;
                })
                .stage("scale", rec -> {
                    stageSaw.add(CpusAllowed.ofCurrentThread());
                    return true;
                }, 2)
                .consumer(rec -> {
                    consumerSaw.add(CpusAllowed.ofCurrentThread());
                    received[0]++;
                })
                .cpus("scale", CpuSet.of(CPU)).cpus(RecordPipeline.CONSUMER, CpuSet.of(CPU))
                .build().start()) {
            assertThat(p.awaitCompletion(Duration.ofSeconds(30))).isTrue();
        }
        assertThat(received[0]).isEqualTo(500);
        assertThat(stageSaw).containsExactly(CPU_NAME);
        assertThat(consumerSaw).containsExactly(CPU_NAME);
        assertThat(sourceSaw).containsExactly(inherited);
    }

    @Test
    void shouldRejectRecordPipelineCpusForUnknownThreadsOrMissingCpus() {
        int n = ThreadAffinity.cpuCount();
        assertThatThrownBy(() -> RecordPipelineBuilder.named("bad-record-cpus").source(rec -> false)
                .stage("scale", rec -> true, 1).consumer(rec -> { })
                .cpus("scael", CpuSet.of(CPU)).cpus("scale", CpuSet.of(n)).cpus(RecordPipeline.SOURCE, CpuSet.of())
                .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CPUs for 'scael': no such stage")
                .hasMessageContaining("stage 'scale': CPU set " + n + " names CPU " + n)
                .hasMessageContaining("'source': CPU set is empty");
    }

    @Test
    void shouldRejectACpuOutsideTheProcessAffinityMaskAtBuildSayingWhatIsAllowed() {
        assumeTrue(CpusAllowed.available(), "thread affinity is Linux only");
        CpuSet allowed = ThreadAffinity.processCpus().orElseThrow();
        int outside = 0;
        while (allowed.contains(outside)) {
            outside++; // the lowest CPU the process may not use: inside the machine when a cpuset or taskset narrows it
        }
        int cpu = outside;
        assertThatThrownBy(() -> RecordPipelineBuilder.named("outside-mask-records").source(rec -> false)
                .stage("scale", rec -> true, 1).consumer(rec -> { })
                .cpus(RecordPipeline.CONSUMER, CpuSet.of(cpu)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'consumer': CPU set " + cpu + " names CPU " + cpu
                        + " outside the CPUs this process may run on, " + allowed);
    }
}
