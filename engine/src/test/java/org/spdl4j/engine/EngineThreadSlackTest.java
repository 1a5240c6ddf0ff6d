package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.affinity.ThreadTimerSlack;
import org.spdl4j.engine.record.RecordPipeline;
import org.spdl4j.engine.record.RecordPipelineBuilder;

/** Every thread the engine starts runs with the configured timer slack, item and record pipelines alike. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EngineThreadSlackTest {

    @Test
    void shouldRunStageFunctionsWithTheConfiguredTimerSlack() throws Exception {
        assumeTrue(ThreadTimerSlack.isSupported() && EngineConfiguration.TIMER_SLACK_NANOS > 0, "Linux only");
        ConcurrentHashMap<Long, Boolean> seen = new ConcurrentHashMap<>();
        try (Pipeline<Long> p = PipelineBuilder.fromIterable(List.of(1, 2, 3, 4, 5, 6, 7, 8)).named("slack")
                .pipe("read-slack", (Integer i) -> ThreadTimerSlack.currentThread().orElse(-1),
                        StageOptions.defaults().withConcurrency(3))
                .sink(4)
                .build()) {
            for (Long slack : p) {
                seen.put(slack, true);
            }
        }
        assertThat(seen.keySet()).as("timer slack seen by the stage's workers")
                .containsExactly(EngineConfiguration.TIMER_SLACK_NANOS);
    }

    @Test
    void shouldRunRecordStagesWithTheConfiguredTimerSlack() throws Exception {
        assumeTrue(ThreadTimerSlack.isSupported() && EngineConfiguration.TIMER_SLACK_NANOS > 0, "Linux only");
        long[] next = {0};
        ConcurrentHashMap<Long, Boolean> seen = new ConcurrentHashMap<>();
        try (RecordPipeline p = RecordPipelineBuilder.named("slack-records").recordLength(8).ringCapacity(8)
                .source(rec -> next[0]++ < 100)
                .stage("read-slack", rec -> {
                    rec.putLong(0, ThreadTimerSlack.currentThread().orElse(-1));
                    return true;
                }, 2)
                .consumer(rec -> seen.put(rec.getLong(0), true))
                .build().start()) {
            assertThat(p.awaitCompletion(Duration.ofSeconds(20))).isTrue();
        }
        assertThat(seen.keySet()).containsExactly(EngineConfiguration.TIMER_SLACK_NANOS);
    }
}
