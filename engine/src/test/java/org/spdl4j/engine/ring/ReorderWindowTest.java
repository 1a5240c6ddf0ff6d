package org.spdl4j.engine.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.lmax.disruptor.BusySpinWaitStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReorderWindowTest {

    @Test
    void shouldPublishInSequenceOrderWhateverOrderResultsArriveIn() {
        ItemLink out = new ItemLink("out", 16, false, 1, new BusySpinWaitStrategy());
        SingleConsumerPoller poll = new SingleConsumerPoller(out);
        RunFlag running = new RunFlag();
        BoundedPublisher pub = out.publisher(new BackoffIdleStrategy(), running);
        ReorderWindow w = new ReorderWindow(8);

        int[] published = new int[1];
        IntConsumer count = n -> published[0] += n;
        assertThat(w.put(2, "c", 0, pub, new BackoffIdleStrategy(), running, count)).isEqualTo(ReorderWindow.STORED);
        assertThat(w.put(1, null, 0, pub, new BackoffIdleStrategy(), running, count)).isEqualTo(ReorderWindow.STORED);
        assertThat(published[0]).isZero(); // 2 and 1 (dropped) wait for 0
        assertThat(w.put(0, "a", 0, pub, new BackoffIdleStrategy(), running, count)).isEqualTo(ReorderWindow.STORED);
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
                    window.put(s, s % 5 == 0 ? null : Long.valueOf(s), 0, pub, idle, running, n -> { });
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
            assertThat(w.put(s, "v" + s, 0, pub, new BackoffIdleStrategy(), running, count))
                    .isEqualTo(ReorderWindow.STORED);
        }
        running.stop(); // nobody reads the two-slot ring: 0 and 1 go out, 2 finds it full and stops

        assertThat(w.put(0, "v0", 0, pub, new BackoffIdleStrategy(), running, count))
                .isEqualTo(ReorderWindow.STOPPED);
        assertThat(published[0]).isEqualTo(2);
        assertThat(w.head()).isEqualTo(2);
        List<Object> left = new ArrayList<>();
        assertThat(w.drainUndelivered(left::add)).isEqualTo(2);
        assertThat(left).containsExactlyInAnyOrder("v2", "v3");
    }

    @Test
    void shouldRejectACapacityThatIsNotAPowerOfTwo() {
        assertThatThrownBy(() -> new ReorderWindow(12)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("power of two");
    }
}
