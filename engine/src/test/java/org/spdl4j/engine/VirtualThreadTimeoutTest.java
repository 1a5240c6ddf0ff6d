package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Task timeouts of virtual-thread pipes when a task's thread starts only after its timeout. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class VirtualThreadTimeoutTest {

    /**
     * Every carrier thread of the virtual-thread scheduler is kept busy, so the stage's virtual threads cannot start
     * before their tasks time out and their entry is reused for the next item. When they finally start, the function
     * must not run on items already counted as failed; the engine still owns those items and discards them.
     */
    @Test
    void shouldNotRunTasksThatTimedOutBeforeTheirThreadStarted() throws Exception {
        int items = 3;
        AtomicInteger calls = new AtomicInteger();
        ConcurrentLinkedQueue<Object> discarded = new ConcurrentLinkedQueue<>();
        try (Pipeline<String> p = PipelineBuilder.fromIterable(List.of(0, 1, 2))
                .named("vt-late-start")
                .pipeVirtual("io", (Integer i) -> {
                    calls.incrementAndGet();
                    return "r" + i;
                }, StageOptions.defaults().withConcurrency(1).withTaskTimeout(Duration.ofMillis(50))
                        .withFailureBudget(FailureBudget.count(items + 1)))
                .onDiscard(discarded::add)
                .build()) { // builds (and warms up) the virtual-thread scheduler before we occupy it
            int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                    Runtime.getRuntime().availableProcessors());
            CountDownLatch spinning = new CountDownLatch(carriers);
            CountDownLatch release = new CountDownLatch(1);
            List<Thread> spinners = new ArrayList<>();
            for (int c = 0; c < carriers; c++) {
                spinners.add(Thread.ofVirtual().start(() -> {
                    spinning.countDown();
                    while (release.getCount() > 0) {
                        Thread.onSpinWait(); // never yields: holds its carrier thread
                    }
                }));
            }
            try {
                assertThat(spinning.await(5, TimeUnit.SECONDS)).as("every carrier occupied").isTrue();
                p.start();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (p.stats().get(1).failures() < items && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertThat(p.stats().get(1).failures()).as("tasks timed out before starting").isEqualTo(items);
            } finally {
                release.countDown();
            }
            for (Thread t : spinners) {
                t.join();
            }
            List<String> out = new ArrayList<>();
            p.forEach(out::add);
            assertThat(out).isEmpty();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (discarded.size() < items && System.nanoTime() < deadline) {
                Thread.sleep(5); // the late virtual threads run now
            }
            Thread.sleep(50); // a late function call would show up here
        }
        assertThat(calls.get()).as("function calls on timed-out items").isZero();
        assertThat(discarded).as("the items, discarded unseen by the function").containsExactlyInAnyOrder(0, 1, 2);
    }
}
