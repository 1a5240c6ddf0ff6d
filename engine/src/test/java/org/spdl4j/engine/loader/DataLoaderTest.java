package org.spdl4j.engine.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.OutputOrder;

@Timeout(60)
class DataLoaderTest {
    private static List<Integer> range(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    @Test
    void shouldBatchPreprocessedSamplesInSourceOrderWithInputOrder() {
        List<List<Integer>> batches = new ArrayList<>();
        try (DataLoader<List<Integer>> loader = DataLoader.from(range(1000))
                .preprocess(x -> {
                    if (x % 7 == 0) {
                        Thread.onSpinWait();
                    }
                    return x * 2;
                }, 4)
                .batch(32, false)
                .order(OutputOrder.INPUT)
                .named("ordered")
                .build()) {
            for (List<Integer> b : loader) {
                batches.add(b);
            }
        }
        assertThat(batches).hasSize(32); // 31 full + a partial of 8
        assertThat(batches.get(31)).hasSize(8);
        assertThat(batches.stream().flatMap(List::stream).toList())
            .isEqualTo(range(1000).stream().map(x -> x * 2).toList());
    }

    @Test
    void shouldCollateAndTransferEachBatch() {
        int total = 0;
        int count = 0;
        try (DataLoader<Integer> loader = DataLoader.from(range(100))
                .preprocess(x -> x + 1, 2)
                .batch(10, true)
                .collate(list -> list.stream().mapToInt(Integer::intValue).sum())
                .transfer(sum -> CompletableFuture.supplyAsync(() -> -sum), 2)
                .build()) {
            for (int b : loader) {
                total += b;
                count++;
            }
        }
        assertThat(count).isEqualTo(10);
        assertThat(total).isEqualTo(-(100 * 101 / 2));
    }

    /** Steps are named by position: two collate and two transfer steps build and run. */
    @Test
    void shouldRunTwoCollateAndTwoTransferSteps() {
        int total = 0;
        try (DataLoader<Integer> loader = DataLoader.from(range(20))
                .batch(5, true)
                .collate(list -> list.stream().mapToInt(Integer::intValue).sum())
                .collate(sum -> sum * 2)
                .transfer(x -> CompletableFuture.completedFuture(x + 1), 2)
                .transfer(x -> CompletableFuture.completedFuture(-x), 2)
                .build()) {
            for (int b : loader) {
                total += b;
            }
        }
        assertThat(total).isEqualTo(-(2 * (19 * 20 / 2) + 4));
    }

    @Test
    void shouldDropLastPartialBatchWhenAsked() {
        int batches = 0;
        try (DataLoader<List<Integer>> loader = DataLoader.from(range(50)).batch(16, true).build()) {
            for (List<Integer> b : loader) {
                assertThat(b).hasSize(16);
                batches++;
            }
        }
        assertThat(batches).isEqualTo(3);
    }

    @Test
    void shouldThrowTimeoutNamingTheBusiestStageWhenNoBatchComes() {
        try (DataLoader<List<Integer>> loader = DataLoader.from(range(10))
                .preprocess(x -> {
                    try {
                        Thread.sleep(10_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return x;
                }, 1)
                .batch(4, false)
                .timeout(Duration.ofMillis(300))
                .build()) {
            assertThatThrownBy(() -> loader.iterator().hasNext())
                .isInstanceOf(DataLoaderTimeoutException.class)
                .hasMessageContaining("no batch within 300 ms")
                .hasMessageContaining("preprocess-0");
        }
    }

    /** An item that counts how often it was closed. */
    private static final class Token implements AutoCloseable {
        private final java.util.concurrent.atomic.AtomicInteger closes;

        Token(java.util.concurrent.atomic.AtomicInteger closes) {
            this.closes = closes;
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    /**
     * A training loop that stops after two batches and closes the loader: every item the source produced and the
     * loop never received is closed by the default discard hook (items in rings, in a partial batch, taken by the
     * source and not yet published), and none the loop received is.
     */
    @Test
    void shouldCloseEveryUndeliveredItemWhenClosedEarly() {
        java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger closes = new java.util.concurrent.atomic.AtomicInteger();
        Iterable<Token> tokens = () -> IntStream.range(0, 100_000).mapToObj(i -> {
            created.incrementAndGet();
            return new Token(closes);
        }).iterator();
        int delivered = 0;
        try (DataLoader<List<Token>> loader = DataLoader.from(tokens).preprocess(t -> t, 2).batch(8, false)
                .named("early").build()) {
            java.util.Iterator<List<Token>> it = loader.iterator();
            for (int b = 0; b < 2; b++) {
                delivered += it.next().size();
            }
        }
        assertThat(delivered).isEqualTo(16);
        assertThat(closes.get()).as("closed of %d created", created.get()).isEqualTo(created.get() - delivered);
    }

    /** A batch hasNext() took and next() never returned goes to the discard hook at close, not lost. */
    @Test
    void shouldCloseTheItemsOfABatchHasNextTookWhenClosed() {
        java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger closes = new java.util.concurrent.atomic.AtomicInteger();
        Iterable<Token> tokens = () -> IntStream.range(0, 64).mapToObj(i -> {
            created.incrementAndGet();
            return new Token(closes);
        }).iterator();
        int delivered = 0;
        try (DataLoader<List<Token>> loader = DataLoader.from(tokens).batch(4, false).named("peeked").build()) {
            java.util.Iterator<List<Token>> it = loader.iterator();
            int n = 0;
            while (it.hasNext() && n < 2) { // the third hasNext() takes a batch nobody will get
                delivered += it.next().size();
                n++;
            }
        }
        assertThat(delivered).isEqualTo(8);
        assertThat(closes.get()).as("closed of %d created", created.get()).isEqualTo(created.get() - delivered);
    }

    /** Every iterator() call is the loader's one iterator: a batch one caller's hasNext() took is not lost. */
    @Test
    void shouldNotLoseABatchTakenByAnotherIteratorsHasNext() {
        try (DataLoader<List<Integer>> loader = DataLoader.from(IntStream.range(0, 20).boxed().toList())
                .batch(4, false).named("two-iterators").build()) {
            assertThat(loader.iterator().hasNext()).isTrue();
            List<List<Integer>> batches = new java.util.ArrayList<>();
            for (List<Integer> b : loader) {
                batches.add(b);
            }
            assertThat(batches).hasSize(5);
            assertThat(batches.get(0)).containsExactly(0, 1, 2, 3);
        }
    }

    /** A discard hook that throws on the batch hasNext() took is logged, as the engine does, and close completes. */
    @Test
    void shouldNotThrowFromCloseWhenTheHookFailsOnTheBatchHasNextTook() {
        DataLoader<List<Integer>> loader = DataLoader.from(IntStream.range(0, 64).boxed().toList()).batch(4, false)
                .onDiscard(item -> {
                    throw new IllegalStateException("hook failed (test)");
                })
                .named("failing-hook").build();
        assertThat(loader.iterator().hasNext()).isTrue();
        loader.close(); // must not throw
        assertThat(loader.pipeline().isTerminated()).isTrue();
    }
}
