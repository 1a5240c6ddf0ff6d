package org.spdl4j.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.spdl4j.engine.WaitPolicy;

/**
 * A record stage that catches {@code InterruptedException} and restores the flag (the usual idiom) must not stop its
 * worker or fail later records: the engine clears what a task leaves behind, as on item pipelines.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecordStrayInterruptTest {
    private static final int RECORDS = 50;

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @ParameterizedTest
    @EnumSource(WaitPolicy.class)
    void shouldGoOnWhenARecordStageRestoresAnInterruptItCaught(WaitPolicy policy) throws Exception {
        AtomicInteger made = new AtomicInteger();
        AtomicInteger seen = new AtomicInteger();
        try (RecordPipeline p = RecordPipelineBuilder
                .named("record-restores").recordLength(8).ringCapacity(16).waitPolicy(policy)
                .source(rec -> {
                    int i = made.getAndIncrement();
                    if (i >= RECORDS) {
                        return false;
                    }
                    sleepQuietly(1);
                    rec.putLong(0, i);
                    return true;
                })
                .stage("polite", rec -> {
                    try {
                        Thread.sleep(0, 1000); // fails at once on an interrupt left by the record before
                    } catch (InterruptedException e) {
                        throw new IllegalStateException("interrupted on record " + rec.getLong(0), e);
                    }
                    if (rec.getLong(0) == 3) {
                        Thread.currentThread().interrupt(); // what `catch (InterruptedException e)` restores
                    }
                    return true;
                }, 1)
                .consumer(rec -> seen.incrementAndGet())
                .build().start()) {
            assertThat(p.awaitCompletion(Duration.ofSeconds(20))).isTrue();
            assertThat(p.stats().get(1).failures()).isZero();
        }
        assertThat(seen.get()).isEqualTo(RECORDS);
    }
}
