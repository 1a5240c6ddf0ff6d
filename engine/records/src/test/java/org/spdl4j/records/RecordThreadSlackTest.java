package org.spdl4j.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.affinity.ThreadTimerSlack;

/** Every thread a record pipeline starts runs with the engine's configured timer slack, as item pipelines' do. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RecordThreadSlackTest {

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
