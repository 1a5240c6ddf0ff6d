package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.affinity.ThreadTimerSlack;

/** Every thread the engine starts runs with the configured timer slack (record pipelines: spdl4j-records' test). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EngineThreadSlackTest {

    @Test
    void shouldRunStageFunctionsWithTheConfiguredTimerSlack() throws Exception {
        assumeTrue(ThreadTimerSlack.isSupported(), "Linux only");
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
}
