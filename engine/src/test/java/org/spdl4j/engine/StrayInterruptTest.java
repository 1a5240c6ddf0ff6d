package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Interrupts that are not close's. A stage function that catches {@code InterruptedException} and restores the flag
 * (the usual idiom) must not stop its worker or fail later tasks: the engine clears what a task leaves behind. Anyone
 * else interrupting an engine thread while the pipeline runs fails the pipeline, naming the stage, rather than
 * ending the thread quietly and leaving the consumer waiting for an end that never comes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StrayInterruptTest {
    private static final int ITEMS = 50;

    /** A source slow enough that the worker waits for input after each item (where a pending interrupt bites). */
    private static Supplier<Integer> slowSource() {
        AtomicInteger next = new AtomicInteger();
        return () -> {
            int i = next.getAndIncrement();
            if (i >= ITEMS) {
                return null;
            }
            sleepQuietly(1);
            return i;
        };
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @ParameterizedTest
    @EnumSource(WaitPolicy.class)
    void shouldGoOnWhenAStageFunctionRestoresAnInterruptItCaught(WaitPolicy policy) throws Exception {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(slowSource())
                .named("restores-interrupt")
                .pipe("polite", (Integer i) -> {
                    try {
                        Thread.sleep(0, 1000); // fails at once on an interrupt left by the task before
                    } catch (InterruptedException e) {
                        throw new IllegalStateException("interrupted while sleeping on item " + i, e);
                    }
                    if (i == 3) {
                        Thread.currentThread().interrupt(); // what `catch (InterruptedException e)` restores
                    }
                    return i;
                }, StageOptions.defaults().withWaitPolicy(policy))
                .build()) {
            for (Integer i; (i = p.next(Duration.ofSeconds(10))) != null; ) {
                out.add(i);
            }
            assertThat(p.stats().get(1).failures()).isZero();
        }
        assertThat(out).containsExactlyInAnyOrderElementsOf(IntStream.range(0, ITEMS).boxed().toList());
    }

    @Test
    void shouldFailThePipelineWhenSomeoneElseInterruptsAWaitingWorker() throws Exception {
        AtomicInteger next = new AtomicInteger();
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> {
                    int i = next.getAndIncrement();
                    if (i > 0) {
                        sleepQuietly(10_000); // the map worker waits for input meanwhile; close interrupts this
                    }
                    return i;
                })
                .named("stray")
                .pipe("waits", (Integer i) -> i, StageOptions.defaults().withWaitPolicy(WaitPolicy.BLOCKING))
                .build()) {
            assertThat(p.next(Duration.ofSeconds(10))).isZero();
            Thread worker = EngineThreads.thread("spdl4j-stray-waits-0");
            worker.interrupt();
            assertThatThrownBy(() -> p.next(Duration.ofSeconds(10)))
                    .isInstanceOf(PipelineFailedException.class)
                    .hasMessageContaining("waits")
                    .hasMessageContaining("interrupted while the pipeline ran");
        }
    }
}
