package org.spdl4j.engine.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class AsyncPermitsTest {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldNeverExceedTheBoundAndNeverStrandATaskUnderContention() throws Exception {
        AsyncPermits permits = new AsyncPermits(3);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        ExecutorService completers = Executors.newFixedThreadPool(4);
        ExecutorService submitters = Executors.newFixedThreadPool(4);
        try {
            List<CompletableFuture<List<CompletionStage<Integer>>>> batches = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                batches.add(CompletableFuture.supplyAsync(() -> {
                    List<CompletionStage<Integer>> mine = new ArrayList<>();
                    for (int i = 0; i < 5_000; i++) {
                        int v = i;
                        mine.add(permits.submit(() -> {
                            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                            return CompletableFuture.supplyAsync(() -> {
                                ran.incrementAndGet();
                                running.decrementAndGet(); // before completion: the permit is still held here
                                return v;
                            }, completers);
                        }));
                    }
                    return mine;
                }, submitters));
            }
            long sum = 0;
            for (var b : batches) {
                for (CompletionStage<Integer> s : b.get(30, TimeUnit.SECONDS)) {
                    sum += s.toCompletableFuture().get(30, TimeUnit.SECONDS);
                }
            }
            assertThat(ran.get()).isEqualTo(20_000);
            assertThat(sum).isEqualTo(4L * (4_999L * 5_000 / 2));
            assertThat(maxRunning.get()).isBetween(1, 3);
            assertThat(permits.peakInFlight()).isLessThanOrEqualTo(3);
            assertThat(permits.inFlight()).isZero();
        } finally {
            completers.shutdownNow();
            submitters.shutdownNow();
        }
    }

    @Test
    void shouldFailTheStageOfATaskThatThrows() {
        AsyncPermits permits = new AsyncPermits(1);
        CompletionStage<Integer> s = permits.submit(() -> {
            throw new IllegalStateException("boom");
        });
        assertThat(s.toCompletableFuture()).isCompletedExceptionally();
        assertThat(permits.inFlight()).isZero();
        assertThat(permits.submit(() -> CompletableFuture.completedFuture(5)).toCompletableFuture().join()).isEqualTo(5);
    }
    /**
     * Tasks that complete at once (a fetcher that is closed, a URI the client refuses) while many wait: the completion
     * that frees a permit starts them one after another, not each from the last one's completion on an ever deeper
     * stack (which overflowed, leaving tasks whose stages never complete).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldStartManyWaitingTasksThatCompleteAtOnceWithoutDeepeningTheStack() {
        AsyncPermits permits = new AsyncPermits(1);
        CompletableFuture<Integer> holder = new CompletableFuture<>();
        CompletionStage<Integer> first = permits.submit(() -> holder);
        int waiting = 50_000;
        List<CompletableFuture<Integer>> rest = new ArrayList<>(waiting);
        for (int i = 0; i < waiting; i++) {
            int v = i;
            rest.add(permits.submit(() -> CompletableFuture.completedFuture(v)).toCompletableFuture());
        }
        assertThat(rest.get(0)).isNotDone();
        holder.complete(-1);
        assertThat(first.toCompletableFuture().join()).isEqualTo(-1);
        long sum = 0;
        for (CompletableFuture<Integer> f : rest) {
            assertThat(f).isDone();
            sum += f.join();
        }
        assertThat(sum).isEqualTo((long) (waiting - 1) * waiting / 2);
        assertThat(permits.inFlight()).isZero();
    }
}
