package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WaitPolicyTest {

    @ParameterizedTest
    @EnumSource(WaitPolicy.class)
    void shouldMoveEveryItemAndCloseWithEachWaitPolicy(WaitPolicy policy) {
        // Spinning policies need a core per waiting thread; on a shared 2-core box seven spinning threads move only
        // a few hundred items a second (each hand-off waits for a scheduler time slice), so they get fewer items.
        boolean spins = policy == WaitPolicy.BUSY_SPIN || policy == WaitPolicy.YIELDING;
        int items = spins ? 300 : 20_000;
        StageOptions o = StageOptions.defaults().withWaitPolicy(policy).withRingCapacity(16);
        long sum = 0;
        int n = 0;
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, items).boxed().toList())
                .named("wait-" + policy)
                .sourceWaitPolicy(policy)
                .pipe("a", (Integer i) -> i + 1, o.withConcurrency(2).withOrder(OutputOrder.INPUT))
                .pipe("b", (Integer i) -> i - 1, o.withConcurrency(2).withOrder(OutputOrder.INPUT))
                .sink(8, policy)
                .build()) {
            for (Integer i : p) {
                assertThat(i).isEqualTo(n);
                sum += i;
                n++;
            }
        }
        assertThat(n).isEqualTo(items);
        assertThat(sum).isEqualTo((long) items * (items - 1) / 2);
        assertThat(EngineThreads.alive("wait-" + policy)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(WaitPolicy.class)
    void shouldCloseIdleStagesWaitingForInputWithEachWaitPolicy(WaitPolicy policy) throws Exception {
        Pipeline<Integer> p = PipelineBuilder.<Integer>fromSupplier(() -> {
                    try {
                        Thread.sleep(60_000); // the source never delivers: every stage waits for input
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return null;
                })
                .named("idle-" + policy)
                .pipe("a", (Integer i) -> i, StageOptions.defaults().withWaitPolicy(policy).withConcurrency(2))
                .sink(8, policy)
                .build().start();
        Thread.sleep(20);
        long start = System.nanoTime();
        p.close();
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(2));
        assertThat(EngineThreads.alive("idle-" + policy)).isEmpty();
    }
}
