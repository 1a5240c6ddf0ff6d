package org.spdl4j.engine.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.lmax.disruptor.BusySpinWaitStrategy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.spdl4j.engine.Polling;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.engine.stats.WorkerStats;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReorderWindowTest {
    /** No stats: waits are reported to nobody. */
    private static final WorkerStats NO_WAIT = null;

    @Test
    void shouldPublishInSequenceOrderWhateverOrderResultsArriveIn() {
        ItemLink out = new ItemLink("out", 16, false, 1, new BusySpinWaitStrategy());
        SingleConsumerPoller poll = new SingleConsumerPoller(out);
        RunFlag running = new RunFlag();
        BoundedPublisher pub = out.publisher(new BackoffIdleStrategy(), running);
        ReorderWindow w = new ReorderWindow(8);

        int[] published = new int[1];
        IntConsumer count = n -> published[0] += n;
        assertThat(w.put(2, "c", 0, pub, new BackoffIdleStrategy(), running, count, NO_WAIT))
                .isEqualTo(ReorderWindow.STORED);
        assertThat(w.put(1, null, 0, pub, new BackoffIdleStrategy(), running, count, NO_WAIT))
                .isEqualTo(ReorderWindow.STORED);
        assertThat(published[0]).isZero(); // 2 and 1 (dropped) wait for 0
        assertThat(w.put(0, "a", 0, pub, new BackoffIdleStrategy(), running, count, NO_WAIT))
                .isEqualTo(ReorderWindow.STORED);
        assertThat(published[0]).isEqualTo(2);
        assertThat(w.head()).isEqualTo(3);

        List<Object> got = new ArrayList<>();
        while (poll.poll()) {
            got.add(poll.take());
            poll.release();
        }
        assertThat(got).containsExactly("a", "c");
    }

    @Test
    void shouldKeepOrderUnderContentionWithDrops() throws Exception {
        int workers = 6;
        int items = 200_000;
        ItemLink out = new ItemLink("out", 64, true, 1, new BusySpinWaitStrategy());
        SingleConsumerPoller poll = new SingleConsumerPoller(out);
        RunFlag running = new RunFlag();
        ReorderWindow window = new ReorderWindow(16);
        AtomicLong next = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < workers; t++) {
            BoundedPublisher pub = out.publisher(new BackoffIdleStrategy(), running);
            BackoffIdleStrategy idle = new BackoffIdleStrategy();
            // named spdl4j-*: the leftover check fails the class should one outlive it
            threads.add(Thread.ofPlatform().daemon(true).name("spdl4j-test-reorder-" + t).start(() -> {
                for (long s = next.getAndIncrement(); s < items; s = next.getAndIncrement()) {
                    window.put(s, s % 5 == 0 ? null : Long.valueOf(s), 0, pub, idle, running, n -> { }, NO_WAIT);
                }
            }));
        }
        try {
            long expected = 0;
            int received = 0;
            while (received < items - items / 5) {
                if (!poll.poll()) {
                    Thread.onSpinWait();
                    continue;
                }
                long v = (Long) poll.take();
                poll.release();
                if (expected % 5 == 0) {
                    expected++;
                }
                assertThat(v).isEqualTo(expected);
                expected++;
                received++;
            }
        } finally {
            // A failed assertion leaves nobody reading the ring: without the stop the workers would wait for room
            // (and spin) for the rest of the test JVM.
            running.stop();
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(10));
            }
        }
        assertThat(threads).noneMatch(Thread::isAlive);
        assertThat(window.head()).isEqualTo(items);
    }

    @Test
    void shouldReportWhatADrainPublishedBeforeAStop() {
        ItemLink out = new ItemLink("out", 2, false, 1, new BusySpinWaitStrategy());
        RunFlag running = new RunFlag();
        BoundedPublisher pub = out.publisher(new BackoffIdleStrategy(), running);
        ReorderWindow w = new ReorderWindow(8);
        int[] published = new int[1];
        IntConsumer count = n -> published[0] += n;
        for (long s = 1; s <= 3; s++) {
            assertThat(w.put(s, "v" + s, 0, pub, new BackoffIdleStrategy(), running, count, NO_WAIT))
                    .isEqualTo(ReorderWindow.STORED);
        }
        running.stop(); // nobody reads the two-slot ring: 0 and 1 go out, 2 finds it full and stops

        assertThat(w.put(0, "v0", 0, pub, new BackoffIdleStrategy(), running, count, NO_WAIT))
                .isEqualTo(ReorderWindow.STOPPED);
        assertThat(published[0]).isEqualTo(2);
        assertThat(w.head()).isEqualTo(2);
        List<Object> left = new ArrayList<>();
        assertThat(w.drainUndelivered(left::add)).isEqualTo(2);
        assertThat(left).containsExactlyInAnyOrder("v2", "v3");
    }

    @Test
    void shouldNotCallAWaitForTheHeadsOwnTaskHeldBack() throws Exception {
        // 2 is a window ahead of the head, 0. While 0's task still runs, the wait is the stage's own slow item, not
        // the output's back-pressure. Once 0's result is stored and its drainer waits for room in the full output
        // (it holds an earlier item, "x"), the wait is held back by the output, and shows so while it lasts.
        ItemLink out = new ItemLink("out", 1, false, 1, new BusySpinWaitStrategy());
        SingleConsumerPoller poll = new SingleConsumerPoller(out);
        RunFlag running = new RunFlag();
        BoundedPublisher pub = out.publisher(new BackoffIdleStrategy(), running); // one producing thread at a time
        assertThat(pub.publish("x", 0)).isTrue(); // the output is full
        ReorderWindow w = new ReorderWindow(2);
        assertThat(w.put(1, "b", 0, pub, new BackoffIdleStrategy(), running, n -> { }, NO_WAIT))
                .isEqualTo(ReorderWindow.STORED);
        WorkerStats waits = workerStats();
        Thread waiter = Thread.ofPlatform().daemon(true).start(() -> w.put(2, "c", 0, pub,
                new BackoffIdleStrategy(), running, n -> { }, waits));
        Thread.sleep(300); // the waiter waits for the head's task
        assertThat(waits.backPressuredNanos(System.nanoTime())).as("a wait for the head's own task").isZero();
        long headStarted = System.nanoTime();
        Thread head = Thread.ofPlatform().daemon(true).start(() -> w.put(0, "a", 0, pub,
                new BackoffIdleStrategy(), running, n -> { }, NO_WAIT)); // stored; its drain waits for room for 0
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Arrays.stream(head.getStackTrace()).noneMatch(f -> f.getMethodName().equals("claimWhenFull"))
                && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        // the waiter is held back behind 0, stored and waiting for room
        long during = Polling.awaitAtLeast(() -> waits.backPressuredNanos(System.nanoTime()), 1);
        assertThat(poll.poll()).isTrue();
        assertThat(poll.take()).isEqualTo("x");
        poll.release(); // room for 0: the head moves on, the waiter stores 2
        waiter.join(10_000);
        long released = System.nanoTime();
        running.stop(); // 1 and 2 find the output full again: the drain stops
        head.join(10_000);
        assertThat(during).as("the wait behind the stored head counts while it lasts").isPositive();
        assertThat(waits.backPressuredNanos(released)).as("the wait behind the stored head only, not the 300 ms before")
                .isGreaterThanOrEqualTo(during).isLessThanOrEqualTo(released - headStarted);
        assertEnded(waits);
    }

    @Test
    void shouldEndTheReportedWaitWhenStoppedWhileHeldBack() throws Exception {
        // As above, but the pipeline stops while the waiter is held back: it leaves without storing, its wait ended.
        ItemLink out = new ItemLink("out", 1, false, 1, new BusySpinWaitStrategy());
        RunFlag running = new RunFlag();
        BoundedPublisher pub = out.publisher(new BackoffIdleStrategy(), running);
        assertThat(pub.publish("x", 0)).isTrue(); // the output is full: 0's drain will wait for room
        ReorderWindow w = new ReorderWindow(2);
        Thread head = Thread.ofPlatform().daemon(true).start(() -> w.put(0, "a", 0, pub,
                new BackoffIdleStrategy(), running, n -> { }, NO_WAIT));
        WorkerStats waits = workerStats();
        AtomicLong outcome = new AtomicLong(Long.MIN_VALUE);
        Thread waiter = Thread.ofPlatform().daemon(true).start(() -> outcome.set(w.put(2, "c", 0, pub,
                new BackoffIdleStrategy(), running, n -> { }, waits)));
        long during = Polling.awaitAtLeast(() -> waits.backPressuredNanos(System.nanoTime()), 1);
        running.stop();
        waiter.join(10_000);
        head.join(10_000);
        assertThat(during).as("held back behind the stored head while the output is full").isPositive();
        assertThat(outcome.get()).isEqualTo(ReorderWindow.STOPPED_NOT_STORED);
        assertEnded(waits);
    }

    private static WorkerStats workerStats() {
        return new StageStats("test", "window", 1, () -> 0L, 0).worker(0);
    }
    /** No wait is left open: a reading a second later than now counts no more. */
    private static void assertEnded(WorkerStats waits) {
        long now = System.nanoTime();
        long total = waits.backPressuredNanos(now);
        assertThat(waits.backPressuredNanos(now + TimeUnit.SECONDS.toNanos(1)))
                .as("the wait was ended when put returned").isEqualTo(total);
    }

    @Test
    void shouldRejectACapacityThatIsNotAPowerOfTwo() {
        assertThatThrownBy(() -> new ReorderWindow(12)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("power of two");
    }
}
