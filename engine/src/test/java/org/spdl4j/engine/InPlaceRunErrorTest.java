package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The call-free stretches of the run loops (MapWorker / SourceWorker inPlaceRun) count what they took also
 * when an Error (not an Exception) escapes a stage function or the source in the middle of a stretch: the stretch's
 * items in and its tasks are added on the way out, as the per-item loop counted each item before its call.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InPlaceRunErrorTest {

    /** An Error of a stage function (an assertion, a stack overflow...): the worker dies and fails the pipeline. */
    static final class StageError extends Error {
        private static final long serialVersionUID = 1L;

        StageError(String message) {
            super(message);
        }
    }

    @Test
    void shouldCountTheItemsAStageTookBeforeItsFunctionThrewAnError() throws Exception {
        int errorAt = 300; // inside a run of the call-free stretch
        AtomicInteger calls = new AtomicInteger();
        StageOptions batching = StageOptions.defaults().withPublishBatching(PublishBatching.SHORT_TASKS)
                .withRingCapacity(4096);
        Pipeline<Integer> p = PipelineBuilder.fromSupplier(InPlaceRunTest.upTo(4000)).named("error-in-stretch")
                .sourcePublishBatching(PublishBatching.SHORT_TASKS)
                .pipe("dies", (Integer i) -> {
                    if (calls.incrementAndGet() == errorAt) {
                        throw new StageError("bad item " + i);
                    }
                    return i;
                }, batching)
                .sink(4096)
                .build();
        drainToTheFailure(p);
        assertThat(calls.get()).isEqualTo(errorAt);
        SoftAssertions.assertSoftly(soft -> {
            soft.assertThat(p.stats().get(1).itemsIn()).as("items the stage took: every call, the failing one too")
                    .isEqualTo(errorAt);
            soft.assertThat(p.stats().get(1).tasks()).as("tasks the stage ran: every call, the failing one too")
                    .isEqualTo(errorAt);
        });
    }

    @Test
    void shouldCountTheItemsASourceReturnedBeforeItThrewAnError() throws Exception {
        int errorAt = 301; // the call that throws; the 300 before it returned items
        AtomicInteger calls = new AtomicInteger();
        Supplier<Integer> source = () -> {
            int c = calls.incrementAndGet();
            if (c == errorAt) {
                throw new StageError("source broke at call " + c);
            }
            return c;
        };
        Pipeline<Integer> p = PipelineBuilder.fromSupplier(source).named("source-error-in-stretch")
                .sourcePublishBatching(PublishBatching.SHORT_TASKS)
                .pipe("same", (Integer i) -> i, StageOptions.defaults().withRingCapacity(4096))
                .sink(4096)
                .build();
        drainToTheFailure(p);
        assertThat(calls.get()).isEqualTo(errorAt);
        SoftAssertions.assertSoftly(soft -> {
            soft.assertThat(p.stats().get(0).itemsIn()).as("items the source returned before the Error")
                    .isEqualTo(errorAt - 1L);
            soft.assertThat(p.stats().get(0).tasks()).as("source calls that returned before the Error")
                    .isEqualTo(errorAt - 1L);
        });
    }

    /** Takes items until the pipeline fails (the Error fails it), then closes it. */
    private static void drainToTheFailure(Pipeline<Integer> p) {
        try (p) {
            assertThatThrownBy(() -> {
                while (p.next(Duration.ofSeconds(20)) != null) {
                    // drain until the failure
                }
            }).isInstanceOf(PipelineFailedException.class);
        }
    }
}
