package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CloseTest {

    private static Integer sleepy(Integer i, long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted", e);
        }
        return i;
    }

    @Test
    void shouldCloseWithinTwoSecondsWhenTheConsumerBreaksOutOfAnEndlessSource() {
        AtomicLong counter = new AtomicLong();
        Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> (int) counter.getAndIncrement())
                .named("endless")
                .pipe("sleepy", (Integer i) -> sleepy(i, i < 10 ? 1 : 10_000), // after 10 items it blocks for good
                        StageOptions.defaults().withConcurrency(3))
                .pipe("more", (Integer i) -> i, StageOptions.defaults().withConcurrency(2))
                .build();
        int taken = 0;
        for (Integer ignored : p) {
            if (++taken == 10) {
                break;
            }
        }
        assertThat(EngineThreads.alive("endless")).isNotEmpty();

        long start = System.nanoTime();
        p.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isLessThan(Duration.ofSeconds(2));
        assertThat(EngineThreads.alive("endless")).isEmpty();
        p.close(); // idempotent
        assertThatThrownBy(() -> p.next(Duration.ofMillis(10))).isInstanceOf(IllegalStateException.class);
    }

    /**
     * Close interrupts the virtual threads running tasks and waits for them: the pipeline is terminated when close
     * returns. (Without the interrupt close would still return, after its bound, with the tasks asleep: only
     * isTerminated() and the tasks' own view tell the two apart; the task threads, virtual, are not in
     * {@link EngineThreads#alive}.)
     */
    @Test
    void shouldCloseAVirtualThreadAndAsyncPipelineBlockedInTasks() throws Exception {
        CountDownLatch blocked = new CountDownLatch(8);
        AtomicInteger interrupted = new AtomicInteger();
        Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> 1)
                .named("blocked-vt")
                .pipeVirtual("io", (Integer i) -> {
                    blocked.countDown();
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        interrupted.incrementAndGet();
                        throw new IllegalStateException("interrupted", e);
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(8))
                .build().start();
        assertThat(blocked.await(10, TimeUnit.SECONDS)).as("all 8 tasks asleep").isTrue();
        long start = System.nanoTime();
        p.close();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(p.isTerminated()).as("every task ended before close returned").isTrue();
        assertThat(interrupted.get()).as("tasks woken by close's interrupt").isGreaterThanOrEqualTo(8);
        assertThat(EngineThreads.alive("blocked-vt")).isEmpty();
    }

    @Test
    void shouldTimeOutNextWithoutEndingThePipeline() throws Exception {
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> 7)
                .named("slow-start")
                .pipe("wait", (Integer i) -> sleepy(i, 300))
                .build()) {
            assertThatThrownBy(() -> p.next(Duration.ofMillis(20)))
                    .isInstanceOf(java.util.concurrent.TimeoutException.class);
            assertThat(p.next(Duration.ofSeconds(10))).isEqualTo(7);
            assertThat(p.isEnded()).isFalse();
        }
    }

    @Test
    void shouldReturnNullForeverAfterTheEnd() throws Exception {
        try (Pipeline<String> p = PipelineBuilder.fromIterable(java.util.List.of("a")).build()) {
            assertThat(p.next(Duration.ofSeconds(5))).isEqualTo("a");
            assertThat(p.next(Duration.ofSeconds(5))).isNull();
            assertThat(p.next(Duration.ofSeconds(5))).isNull();
            assertThat(p.isEnded()).isTrue();
        }
        assertThat(EngineThreads.alive(EngineConfiguration.DEFAULT_PIPELINE_NAME)).isEmpty();
    }

    /** Blocks until {@code release} is set, swallowing interrupts (a stage function that ignores them). */
    private static Integer stubborn(Integer i, CountDownLatch entered, AtomicBoolean release) {
        entered.countDown();
        while (!release.get()) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException ignored) {
                // ignores the interrupt on purpose: close() must not wait for it
            }
        }
        return i;
    }

    @Test
    void shouldReportNotTerminatedWhileAStageIgnoringInterruptsOutlivesCloseThenTerminated() throws Exception {
        AtomicBoolean release = new AtomicBoolean();
        CountDownLatch entered = new CountDownLatch(2);
        Pipeline<Integer> sync = PipelineBuilder.fromSupplier(() -> 1)
                .named("stubborn-sync")
                .pipe("ignore", (Integer i) -> stubborn(i, entered, release))
                .build().start();
        Pipeline<Integer> virtual = PipelineBuilder.fromSupplier(() -> 1)
                .named("stubborn-vt")
                .pipeVirtual("ignore", (Integer i) -> stubborn(i, entered, release),
                        StageOptions.defaults().withConcurrency(1))
                .build().start();
        try {
            assertThat(entered.await(5, TimeUnit.SECONDS)).as("both functions running").isTrue();
            assertThat(sync.isTerminated()).as("before close").isFalse();

            sync.close();
            virtual.close();

            assertThat(sync.isTerminated()).as("sync stage still running after close").isFalse();
            assertThat(virtual.isTerminated()).as("virtual-thread task still running after close").isFalse();
        } finally {
            release.set(true);
        }
        Polling.awaitTrue("sync and virtual-thread pipelines terminated once their function and task returned",
                () -> sync.isTerminated() && virtual.isTerminated(), Duration.ofSeconds(5));
        assertThat(EngineThreads.alive("stubborn-sync")).isEmpty();
    }

    /**
     * A close called while another thread's close is still sweeping into the discard hook waits for it: returning
     * early (and reporting the pipeline terminated) would let its caller free pools the sweep still returns to.
     */
    @Test
    void shouldMakeASecondCloseWaitForTheFirstToFinish() throws Exception {
        CountDownLatch inHook = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        AtomicLong counter = new AtomicLong();
        Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> (int) counter.getAndIncrement())
                .named("two-closers")
                .onDiscard(item -> {
                    // the sweep, on the closing thread (engine threads discard too, before they are joined)
                    if (Thread.currentThread().getName().equals("first-closer") && first.compareAndSet(true, false)) {
                        inHook.countDown();
                        try {
                            letGo.await(20, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                })
                .pipe("same", (Integer i) -> i, StageOptions.defaults())
                .build();
        assertThat(p.next(Duration.ofSeconds(10))).isNotNull(); // running, with items in its rings
        Thread firstCloser = Thread.ofPlatform().name("first-closer").start(p::close);
        assertThat(inHook.await(10, TimeUnit.SECONDS)).as("the first close reached the discard hook").isTrue();

        Thread secondCloser = Thread.ofPlatform().name("second-closer").start(p::close);
        secondCloser.join(300);
        assertThat(secondCloser.isAlive()).as("the second close waits for the first").isTrue();
        assertThat(p.isTerminated()).as("terminated while the first close still sweeps").isFalse();

        letGo.countDown();
        secondCloser.join(10_000);
        firstCloser.join(10_000);
        assertThat(secondCloser.isAlive()).isFalse();
        assertThat(p.isTerminated()).isTrue();
    }

    /** A discard hook that closes its own pipeline (on the closing thread) does not wait for itself. */
    @Test
    void shouldNotDeadlockWhenTheDiscardHookClosesThePipeline() throws Exception {
        AtomicLong counter = new AtomicLong();
        Pipeline<?>[] self = new Pipeline<?>[1];
        Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> (int) counter.getAndIncrement())
                .named("self-closing")
                .onDiscard(item -> self[0].close())
                .pipe("same", (Integer i) -> i, StageOptions.defaults())
                .build();
        self[0] = p;
        assertThat(p.next(Duration.ofSeconds(10))).isNotNull();
        p.close();
        assertThat(p.isTerminated()).isTrue();
    }

    /**
     * A source is single-threaded: close must not close it under its thread still inside {@code next()} (the call
     * could be about to hand out what close releases). Close still returns in time, and says it did not finish.
     */
    @Test
    void shouldNotCloseASourceWhoseThreadIsStillInsideNext() throws Exception {
        AtomicBoolean letGo = new AtomicBoolean();
        AtomicBoolean inside = new AtomicBoolean();
        AtomicLong closes = new AtomicLong();
        AtomicLong calls = new AtomicLong();
        Pipeline<Integer> p = PipelineBuilder.<Integer>fromSource(() -> new Source<Integer>() {
                    @Override
                    public Integer next() {
                        if (calls.getAndIncrement() == 0) {
                            return 1;
                        }
                        inside.set(true);
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                        while (!letGo.get() && System.nanoTime() < deadline) {
                            Thread.onSpinWait(); // deaf to interrupts, like a native read that does not return
                        }
                        return null;
                    }

                    @Override
                    public void close() {
                        closes.incrementAndGet();
                    }
                })
                .named("deaf-source")
                .build();
        try {
            assertThat(p.next(Duration.ofSeconds(10))).isEqualTo(1);
            Polling.awaitTrue("the source thread inside next()", inside::get, Duration.ofSeconds(10));
            p.close();
            assertThat(p.isTerminated()).as("its source thread still runs").isFalse();
            assertThat(closes.get()).as("source closed under its own thread").isZero();
            assertThat(p.finishClose()).as("finishClose while its thread still runs").isFalse();
        } finally {
            letGo.set(true);
        }
        Polling.awaitTrue("the pipeline terminated once next() returned", p::isTerminated, Duration.ofSeconds(10));
        assertThat(closes.get()).as("not before finishClose").isZero();
        assertThat(p.finishClose()).isTrue();
        assertThat(p.finishClose()).isTrue();
        assertThat(closes.get()).as("finishClose closed the source, once").isOne();
    }

    /**
     * A virtual-thread task that timed out and returns after close has begun has its result discarded on its own
     * thread; a discard hook there that calls close() must not wait for the first close, which is waiting for that
     * very thread.
     */
    @Test
    void shouldNotMakeALateTaskWaitWhenItsDiscardHookCallsClose() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        AtomicLong hookCloseNanos = new AtomicLong(-1);
        Pipeline<?>[] self = new Pipeline<?>[1];
        Pipeline<Integer> p = PipelineBuilder.fromIterable(java.util.List.of(1, 2))
                .named("late-hook")
                .onDiscard(item -> {
                    long t0 = System.nanoTime();
                    self[0].close();
                    hookCloseNanos.compareAndSet(-1, System.nanoTime() - t0);
                })
                .pipeVirtual("io", (Integer i) -> {
                    running.countDown();
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                    while (System.nanoTime() < end) {
                        Thread.onSpinWait(); // deaf to close's interrupt; returns (late) after close began
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(1).withTaskTimeout(Duration.ofMillis(20)))
                .build();
        self[0] = p;
        p.start();
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(60); // the task timed out: its result, when it comes, is discarded on its own thread
        p.close();
        Polling.awaitTrue("the discard hook's close() returned", () -> hookCloseNanos.get() >= 0,
                Duration.ofSeconds(10));
        assertThat(Duration.ofNanos(hookCloseNanos.get())).as("close() from the hook on the late task's thread")
                .isLessThan(Duration.ofMillis(500));
    }
}
