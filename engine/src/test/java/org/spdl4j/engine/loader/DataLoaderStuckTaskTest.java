package org.spdl4j.engine.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A preprocess task that hangs, ignoring interrupts: the timeout names it, and the watchdog logs it as it happens. */
@Timeout(60)
class DataLoaderStuckTaskTest {
    private static final int STUCK = 5;

    /** Takes ~1 ms per sample (so every task is timed); sample {@link #STUCK} hangs until released. */
    private static Integer work(Integer x, AtomicBoolean release, CountDownLatch stuck) {
        LockSupport.parkNanos(1_000_000);
        if (x == STUCK) {
            stuck.countDown();
            while (!release.get()) {
                LockSupport.parkNanos(5_000_000); // returns on an interrupt too, and goes on: ignores it
            }
        }
        return x;
    }

    @Test
    void shouldNameTheStuckStageItsItemAndHowLongItRan() throws Exception {
        AtomicBoolean release = new AtomicBoolean();
        CountDownLatch stuck = new CountDownLatch(1);
        try (DataLoader<List<Integer>> loader = DataLoader.from(IntStream.range(0, 40).boxed().toList())
                .preprocess(x -> work(x, release, stuck), 1)
                .batch(4, false)
                .timeout(Duration.ofMillis(600))
                .named("stuck")
                .build()) {
            Iterator<List<Integer>> it = loader.iterator();
            assertThat(it.next()).containsExactly(0, 1, 2, 3);
            assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(it::next).isInstanceOf(DataLoaderTimeoutException.class)
                .hasMessageContaining("stage 'preprocess-0' is stuck: worker 0 has run its task on item 5 for")
                .satisfies(e -> assertThat(((DataLoaderTimeoutException) e).stuckStage()).isEqualTo("preprocess-0"))
                .hasMessageNotContaining("'source'");
        } finally {
            release.set(true);
        }
    }

    @Test
    void shouldLogATaskPastItsTimeoutWhenItHappensAndAgainWhenItIgnoresTheInterrupt() throws Exception {
        AtomicBoolean release = new AtomicBoolean();
        CountDownLatch stuck = new CountDownLatch(1);
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8)); // slf4j-simple writes to System.err
        try (DataLoader<List<Integer>> loader = DataLoader.from(IntStream.range(0, 40).boxed().toList())
                .preprocess(x -> work(x, release, stuck), 1)
                .batch(4, false)
                .taskTimeout(Duration.ofMillis(200))
                .timeout(Duration.ofSeconds(30))
                .named("watched")
                .build()) {
            Iterator<List<Integer>> it = loader.iterator();
            assertThat(it.next()).containsExactly(0, 1, 2, 3);
            assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!log.toString(StandardCharsets.UTF_8).contains("ignores interrupts")
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            String text = log.toString(StandardCharsets.UTF_8);
            assertThat(text).contains("pipeline 'watched', stage 'preprocess-0', worker 0: the task on item 5 has"
                + " run").contains("past the stage's task timeout of 200 ms: interrupted");
            assertThat(text).contains("the task on item 5 is still running").contains("ignores interrupts")
                .contains("DataLoaderStuckTaskTest.work");
            release.set(true);
            int delivered = 4;
            while (it.hasNext()) {
                delivered += it.next().size();
            }
            assertThat(delivered).as("every sample but the timed-out one").isEqualTo(39);
        } finally {
            release.set(true);
            System.setErr(err);
        }
    }
}
