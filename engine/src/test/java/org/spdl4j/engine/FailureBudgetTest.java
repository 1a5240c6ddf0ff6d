package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FailureBudgetTest {
    private static final int ITEMS = 1_000;

    private static Pipeline<Integer> failingEvery100th(int concurrency, FailureBudget budget) {
        return PipelineBuilder.fromIterable(IntStream.range(0, ITEMS).boxed().toList())
                .named("budget")
                .pipe("parse", (Integer i) -> {
                    if (i % 100 == 99) {
                        throw new IllegalArgumentException("corrupt record " + i);
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(concurrency).withFailureBudget(budget))
                .build();
    }

    /** Exactly the allowed fraction is within the budget for every percentage, whatever doubles make of it. */
    @Test
    void shouldAllowExactlyTheFractionAtEveryPercentage() {
        for (int percent = 1; percent < 100; percent++) {
            FailureBudget budget = FailureBudget.fraction(percent / 100.0);
            for (long items : new long[] {100, 200, 1_000, 10_000}) {
                long allowed = items * percent / 100;
                assertThat(budget.isExceeded(allowed, items)).as("%d%% of %d: %d failures", percent, items, allowed)
                        .isFalse();
                assertThat(budget.isExceeded(allowed + 1, items)).as("%d%% of %d: one more", percent, items)
                        .isTrue();
            }
        }
    }

    /** A fraction of no items is undefined: before the first item a fractional budget is not judged. */
    @Test
    void shouldNotJudgeAFractionOfNoItems() {
        FailureBudget fromTheFirstItem = new FailureBudget(Long.MAX_VALUE, 0.5, 0);
        assertThat(fromTheFirstItem.isExceeded(1, 0)).isFalse();
        assertThat(fromTheFirstItem.isExceeded(1, 1)).isTrue(); // judged from the first item on, as before
        assertThat(new FailureBudget(0, 0.5, 0).isExceeded(1, 0)).as("the count still applies").isTrue();
    }

    /** An aggregator's flush that fails at the end of an empty stream: within a fractional budget, not a failure. */
    @Test
    void shouldEndAnEmptyStreamWhoseFlushFailsWithinAFractionalBudget() throws Exception {
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(List.<Integer>of())
                .named("empty-flush")
                .aggregate("sum", () -> new Aggregator<Integer, Integer>() {
                    @Override
                    public Integer add(Integer item) {
                        return null;
                    }

                    @Override
                    public Integer flush() {
                        throw new IllegalStateException("nothing to finish (test)");
                    }
                }, StageOptions.defaults().withFailureBudget(new FailureBudget(Long.MAX_VALUE, 0.5, 0)))
                .build()) {
            assertThat(p.next(Duration.ofSeconds(10))).isNull(); // the end, not a PipelineFailedException
            assertThat(p.stats().get(1).failures()).isEqualTo(1);
        }
    }

    @Test
    void shouldGoOnWhenFailuresReachTheBudgetExactly() {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = failingEvery100th(4, FailureBudget.count(10))) { // exactly 10 failures
            p.forEach(out::add);
            assertThat(p.stats().get(1).failures()).isEqualTo(10);
        }
        assertThat(out).hasSize(ITEMS - 10).doesNotContain(99, 199, 999);
    }

    @Test
    void shouldFailThePipelineNamingTheStageOnOneFailureOverTheBudget() {
        try (Pipeline<Integer> p = failingEvery100th(4, FailureBudget.count(9))) {
            assertThatThrownBy(() -> {
                for (Integer ignored : p) {
                    // drain until the failure surfaces
                }
            }).isInstanceOf(PipelineFailedException.class)
                    .hasMessageContaining("stage 'parse'")
                    .hasMessageContaining("failure budget")
                    .hasRootCauseInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertThat(((PipelineFailedException) e).stage()).isEqualTo("parse"));
            // every later call keeps failing the same way
            assertThatThrownBy(() -> p.next(Duration.ofSeconds(1))).isInstanceOf(PipelineFailedException.class);
        }
    }

    @Test
    void shouldFailWhenTheFractionOfFailuresIsExceeded() {
        try (Pipeline<Integer> ok = failingEvery100th(2, FailureBudget.fraction(0.02))) {
            int n = 0;
            for (Integer ignored : ok) {
                n++;
            }
            assertThat(n).isEqualTo(ITEMS - 10); // 1% failures fit a 2% budget
        }
        try (Pipeline<Integer> bad = failingEvery100th(2, FailureBudget.fraction(0.005))) {
            assertThatThrownBy(() -> bad.forEach(i -> { }))
                    .isInstanceOf(PipelineFailedException.class).hasMessageContaining("parse");
        }
    }

    /**
     * A fractional budget is judged by every item the stage has taken, also those of the input run a batching worker
     * is walking (it adds a run's items to its count once per run, but must count them before it judges a failure
     * among them). Every other item fails: at each failure exactly half of the items taken so far have failed, which
     * a budget of one half allows; the items of the current run left out of the count made it a spurious failure.
     */
    @Test
    void shouldJudgeAFractionByEveryItemTakenAlsoInTheRunBeingWalked() {
        assertWithinHalfABudget(1, new FailureBudget(Long.MAX_VALUE, 0.5, 1)); // one worker: results in place
        // Two workers: staged results. The untaken rests of their current runs, and a success each taken after its
        // worker's last failure and not counted yet, leave at most three more failures than successes among the
        // items counted (0.515 of 100, the minimum): the budget allows that, not a run's worth of items left out.
        assertWithinHalfABudget(2, new FailureBudget(Long.MAX_VALUE, 0.52, 100));
    }

    private static void assertWithinHalfABudget(int concurrency, FailureBudget budget) {
        int items = 20_000;
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, items).boxed().toList())
                .named("half-failing").sourcePublishBatching(PublishBatching.SHORT_TASKS)
                .pipe("odd-fails", (Integer i) -> {
                    if (i % 2 == 1) {
                        throw OddItem.INSTANCE; // no stack trace: the task stays short, so its run is batched
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(concurrency).withFailureBudget(budget)
                        .withPublishBatching(PublishBatching.SHORT_TASKS))
                .build()) {
            long n = 0;
            for (Integer ignored : p) {
                n++;
            }
            assertThat(n).as("even items, %d workers", concurrency).isEqualTo(items / 2);
            assertThat(p.stats().get(1).failures()).isEqualTo(items / 2);
        }
    }

    /** A failure without a stack trace, thrown by a task that must stay short. */
    private static final class OddItem extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final OddItem INSTANCE = new OddItem();

        private OddItem() {
            super("odd item", null, false, false);
        }
    }

    @Test
    void shouldEndWithTheSourceFailureAfterDeliveringItsItems() {
        int[] produced = {0};
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> {
            if (produced[0] == 50) {
                throw new IllegalStateException("disk gone");
            }
            return produced[0]++;
        }).named("src-fail").pipe("id", (Integer i) -> i, StageOptions.defaults().withConcurrency(2)).build()) {
            List<Integer> out = new ArrayList<>();
            assertThatThrownBy(() -> p.forEach(out::add))
                    .isInstanceOf(PipelineFailedException.class)
                    .hasMessageContaining("stage 'source'")
                    .hasRootCauseMessage("disk gone");
            assertThat(out).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 50).boxed().toList());
        }
    }

    @Test
    void shouldFailTasksPastTheirTimeoutAndFreeTheWorker() throws Exception {
        long start = System.nanoTime();
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 40).boxed().toList())
                .named("timeout")
                .pipe("slow", (Integer i) -> {
                    if (i % 10 == 0) {
                        try {
                            Thread.sleep(20_000); // stuck: the watchdog must interrupt it
                        } catch (InterruptedException e) {
                            throw new IllegalStateException("interrupted", e);
                        }
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(2).withTaskTimeout(Duration.ofMillis(500))
                        .withOrder(OutputOrder.INPUT))
                .build()) {
            p.forEach(out::add);
            assertThat(p.stats().get(1).failures()).isEqualTo(4);
        }
        assertThat(out).hasSize(36).doesNotContain(0, 10, 20, 30).isSorted();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    /**
     * A task timeout too long for a {@code long} of nanoseconds ({@code ChronoUnit.FOREVER}, "no limit" spelled as a
     * duration) passes validation, so the build must not fail on it: it means no timeout, for sync, async and
     * virtual-thread stages alike.
     */
    @Test
    void shouldTreatATaskTimeoutBeyondLongNanosAsNoLimit() {
        StageOptions forever = StageOptions.defaults().withConcurrency(2)
                .withTaskTimeout(ChronoUnit.FOREVER.getDuration());
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 20).boxed().toList())
                .named("forever")
                .pipe("sync", (Integer i) -> i, forever)
                .pipeVirtual("virtual", (Integer i) -> i, forever)
                .pipeAsync("async", (Integer i) -> CompletableFuture.completedFuture(i), forever)
                .build()) {
            p.forEach(out::add);
            assertThat(p.stats().stream().mapToLong(s -> s.failures()).sum()).isZero();
        }
        assertThat(out).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 20).boxed().toList());
    }
}
