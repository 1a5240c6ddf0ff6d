package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValidationTest {
    private static final PipelineBuilder<Integer> SOURCE = PipelineBuilder.fromIterable(List.of(1, 2, 3));

    @Test
    void shouldListEveryProblemNamingItsStage() {
        assertThatThrownBy(() -> SOURCE.named("bad name!")
                .pipe("a", (Integer i) -> i, StageOptions.defaults().withRingCapacity(1000))
                .pipe("a", (Integer i) -> i, StageOptions.defaults().withConcurrency(0))
                .pipe("sink", (Integer i) -> i)
                .pipe("t", (Integer i) -> i, StageOptions.defaults().withTaskTimeout(Duration.ZERO)
                        .withReorderWindow(3))
                .sink(100)
                .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pipeline name 'bad name!'")
                .hasMessageContaining("stage 'a': ring capacity 1000 must be a power of two in [1, 2^30] (try 1024)")
                .hasMessageContaining("stage 'a': name is used twice")
                .hasMessageContaining("stage 'a': concurrency 0")
                .hasMessageContaining("stage 'sink': name is used twice")
                .hasMessageContaining("stage 't': task timeout PT0S must be positive")
                .hasMessageContaining("stage 't': reorder window 3")
                .hasMessageContaining("sink: buffer size 100");
    }

    @Test
    void shouldRejectConcurrencyOnSingleThreadedStages() {
        assertThatThrownBy(() -> SOURCE.aggregate("agg", () -> new BatchAggregator<Integer>(2, false),
                StageOptions.defaults().withConcurrency(2)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stage 'agg': aggregate and disaggregate stages run on one thread");
    }

    @Test
    void shouldDescribeAValidPipeline() {
        PipelineSpec spec = SOURCE.named("ok").pipe("double", (Integer i) -> 2 * i,
                StageOptions.defaults().withConcurrency(4).withOrder(OutputOrder.INPUT)).sink(16).spec();
        assertThat(spec.stages()).hasSize(1);
        assertThat(spec.toString()).contains("pipeline 'ok'", "double[MapStage x4, INPUT", "sink[buffer 16]");
    }

    @Test
    void shouldRejectOutOfRangeBudgets() {
        assertThatThrownBy(() -> FailureBudget.fraction(1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FailureBudget.count(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(FailureBudget.count(2).isExceeded(2, 10)).isFalse();
        assertThat(FailureBudget.count(2).isExceeded(3, 10)).isTrue();
        assertThat(FailureBudget.fraction(0.1).isExceeded(50, 99)).as("not judged before 100 items").isFalse();
        assertThat(FailureBudget.fraction(0.1).isExceeded(11, 100)).isTrue();
    }

    /**
     * A batch size below 1 passed {@code spec()} ("validates the description") and failed only in {@code build()},
     * when the stage's aggregator was first created, with a message that named no stage.
     */
    @Test
    void shouldRejectABatchSizeBelowOneWhenTheStageIsDescribed() {
        assertThatThrownBy(() -> SOURCE.pipe("a", (Integer i) -> i).aggregate(0, false).spec())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stage 'aggregate-1': batch size 0 must be at least 1");
    }
}
