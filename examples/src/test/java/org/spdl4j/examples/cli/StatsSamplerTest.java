package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;

/** The progress line and the throughput plot count images, also when an {@code h2d} stage (one item per batch) ends the pipeline. */
@Timeout(60)
class StatsSamplerTest {
    @Test
    void shouldCountImagesAtTheDecodeStageNotTheStageBeforeTheSink() throws Exception {
        try (Pipeline<List<Integer>> p = PipelineBuilder.fromIterable(IntStream.range(0, 40).boxed().toList())
                .named("sampler").pipe("decode", x -> x).aggregate(8, false).pipe("h2d", batch -> batch).sink(8)
                .build()) {
            int batches = 0;
            for (int i = 0; i < 5; i++) {
                batches += p.next(Duration.ofSeconds(10)).size() > 0 ? 1 : 0;
            }
            assertThat(batches).isEqualTo(5);
            assertThat(StatsSampler.imagesIn(org.spdl4j.engine.stats.PipelineStats.of(p.stats()).snapshot())).isEqualTo(40);
        }
    }
}
