package org.spdl4j.examples.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.PipelineSpec;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.examples.slots.SlotBatchLoader;
import org.spdl4j.examples.slots.SlotLoaderOptions;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolRegistry;

/** The shard loader runs as its options say, and a refused configuration leaves no pool behind. */
class ShardImageLoaderConstructionTest {
    @TempDir
    Path dir;

    @Test
    void shouldRunEveryStageTheSourceAndTheConsumerByTheGivenWaitPolicy() {
        SlotLoaderOptions options = SlotLoaderOptions.defaults().withFillConcurrency(3)
            .withWaitPolicy(WaitPolicy.YIELDING);
        try (ShardImageLoader loader = new ShardImageLoader("shard-wait", List.of(dir.resolve("none.tar")), 32, 36, 4,
                options)) {
            PipelineSpec spec = loader.pipeline().spec();
            assertThat(spec.sourceWaitPolicy()).isEqualTo(WaitPolicy.YIELDING);
            assertThat(spec.sinkWaitPolicy()).isEqualTo(WaitPolicy.YIELDING);
            assertThat(spec.stages()).extracting(s -> s.options().waitPolicy()).containsOnly(WaitPolicy.YIELDING);
            assertThat(spec.stages()).filteredOn(s -> s.name().equals(SlotBatchLoader.FILL_STAGE))
                .extracting(s -> s.options().concurrency()).containsExactly(3);
        }
    }

    @Test
    void shouldFreeItsSamplePoolWhenTheBatchLayoutIsRefused() {
        assertThatThrownBy(() -> new ShardImageLoader("shard-refused", List.of(dir.resolve("none.tar")), 32, 36, 0,
                SlotLoaderOptions.defaults()))
            .isInstanceOf(IllegalArgumentException.class);
        assertThat(PoolRegistry.livePools()).extracting(BufferPool::name)
            .as("pools still allocated after the constructor failed").noneMatch(n -> n.startsWith("shard-refused"));
    }

}
