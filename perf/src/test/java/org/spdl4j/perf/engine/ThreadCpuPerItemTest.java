package org.spdl4j.perf.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadCpuPerItemTest {

    @Test
    void shouldChargeEveryPipelineThreadOfEachVariantAndStopThem() throws Exception {
        String[][] expected = {
            {"spdl4j", "spdl4j-bench-source-0", "spdl4j-bench-plus-one-0", "spdl4j-bench-times-three-0", "main"},
            {"jctools", "jctools-source", "jctools-map-1", "jctools-map-2", "main"},
            {"records", "spdl4j-bench-records-source-0", "spdl4j-bench-records-plus-one-0",
                "spdl4j-bench-records-times-three-0", "spdl4j-bench-records-consumer-0", "main"},
        };
        for (String[] variant : expected) {
            ThreadCpuPerItem.Result r = ThreadCpuPerItem.measure(variant[0], 2_000_000);

            assertThat(r.itemsPerSecond()).as(variant[0]).isPositive();
            for (int i = 1; i < variant.length; i++) {
                assertThat(r.nanosPerItem()).as(variant[0]).containsKey(variant[i]);
            }
            assertThat(r.nanosPerItem()).as("%s: the pipeline's threads only", variant[0]).hasSize(variant.length - 1);
            assertThat(r.totalNanosPerItem()).as(variant[0]).isPositive();
            assertThat(r.format(variant[0])).startsWith(variant[0] + " ").contains("ns CPU/item:");
            assertThat(Thread.getAllStackTraces().keySet()).as("stopped after the round")
                    .noneMatch(t -> t.getName().startsWith(variant[1].substring(0, variant[1].indexOf('-') + 1)));
        }
    }

    @Test
    void shouldRefuseAnUnknownVariant() {
        assertThatThrownBy(() -> ThreadCpuPerItem.measure("disruptor", 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spdl4j, jctools, abq or records");
    }
}
