package org.spdl4j.perf.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.affinity.ThreadAffinity;

class StagePlacementTest {

    @Test
    void shouldLeaveEveryThreadUnpinnedForNone() {
        StagePlacement p = StagePlacement.parse("none");

        assertThat(p.source()).isNull();
        assertThat(p.map1()).isNull();
        assertThat(p.map2()).isNull();
        assertThat(p.consumer()).isNull();
    }

    @Test
    void shouldGiveEachOfTheFourThreadsItsOwnList() {
        assumeTrue(ThreadAffinity.isSupported(), "thread affinity needs Linux");
        int cpu = ThreadAffinity.currentThreadCpus().orElseThrow().toArray()[0];

        StagePlacement p = StagePlacement.parse(cpu + ":" + cpu + ":" + cpu + ":" + cpu);

        assertThat(p.source()).isEqualTo(CpuSet.of(cpu));
        assertThat(p.map1()).isEqualTo(CpuSet.of(cpu));
        assertThat(p.map2()).isEqualTo(CpuSet.of(cpu));
        assertThat(p.consumer()).isEqualTo(CpuSet.of(cpu));
    }

    @Test
    void shouldRejectAnythingButFourLists() {
        assertThatThrownBy(() -> StagePlacement.parse("0:1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("source:map1:map2:consumer");
        assertThatThrownBy(() -> StagePlacement.parse("0:0:1:1:1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'0:0:1:1:1'");
    }

    @Test
    void shouldRejectACpuThisProcessMayNotUse() {
        assumeTrue(ThreadAffinity.isSupported(), "thread affinity needs Linux");

        assertThatThrownBy(() -> StagePlacement.parse("0:0:0:" + CpuSet.MAX_CPU))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(String.valueOf(CpuSet.MAX_CPU));
    }

    @Test
    void shouldPinTheCallingThread() throws Exception {
        assumeTrue(ThreadAffinity.isSupported(), "thread affinity needs Linux");
        CpuSet one = CpuSet.of(ThreadAffinity.currentThreadCpus().orElseThrow().toArray()[0]);
        AtomicReference<CpuSet> seen = new AtomicReference<>();

        Thread t = Thread.ofPlatform().start(() -> {
            StagePlacement.pin(one, "test thread");
            seen.set(ThreadAffinity.currentThreadCpus().orElseThrow());
        });
        t.join();

        assertThat(seen.get()).isEqualTo(one);
    }
}
