package org.spdl4j.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.EngineConfiguration;

/**
 * Closing a record pipeline from several threads: whoever's close returns finds every thread stopped and the rings
 * freed, so what it frees next (what the source and consumer use) is no longer in use.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecordCloseTest {

    private static boolean anyThreadAlive(String pipeline) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().startsWith("spdl4j-" + pipeline + "-"));
    }

    /**
     * A close while another thread's close still joins a consumer that is slow to stop must wait for it: returning
     * early would let its caller free what the consumer still uses.
     */
    @Test
    void shouldMakeASecondCloseWaitForTheFirstToFinish() throws Exception {
        CountDownLatch inConsumer = new CountDownLatch(1);
        AtomicBoolean letGo = new AtomicBoolean();
        RecordPipeline p = RecordPipelineBuilder.named("rec-two-closers").recordLength(8).ringCapacity(16)
                .source(rec -> true) // endless
                .consumer(rec -> {
                    inConsumer.countDown();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    while (!letGo.get() && System.nanoTime() < deadline) {
                        Thread.onSpinWait(); // deaf to close's interrupt for a while, like a slow native call
                    }
                })
                .build().start();
        try {
            assertThat(inConsumer.await(10, TimeUnit.SECONDS)).as("the consumer is inside accept").isTrue();
            Thread firstCloser = Thread.ofPlatform().name("first-closer").start(p::close);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (firstCloser.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // until it joins the consumer's thread
            }
            Thread secondCloser = Thread.ofPlatform().name("second-closer").start(p::close);
            secondCloser.join(300);
            assertThat(secondCloser.isAlive()).as("the second close waits for the first").isTrue();
            letGo.set(true);
            secondCloser.join(10_000);
            assertThat(secondCloser.isAlive()).isFalse();
            assertThat(anyThreadAlive("rec-two-closers")).as("threads left when the second close returned").isFalse();
            assertThat(p.rings()).as("rings when the second close returned").allMatch(RecordRing::isFreed);
            firstCloser.join(10_000);
        } finally {
            letGo.set(true);
            p.close();
        }
    }

    /**
     * A consumer that closes its own pipeline (enough records seen) makes the first close run on a pipeline thread,
     * which cannot join itself: the close returns to it at once, and the threads are still joined and the rings
     * freed once it has left, rather than leaked.
     */
    @Test
    void shouldStopAndFreeTheRingsWhenTheConsumerClosesItsOwnPipeline() throws Exception {
        RecordPipeline[] self = new RecordPipeline[1];
        long[] seen = {0};
        AtomicLong closeNanos = new AtomicLong(-1);
        RecordPipeline p = RecordPipelineBuilder.named("rec-self-close").recordLength(8).ringCapacity(16)
                .source(rec -> true) // endless
                .stage("same", rec -> true, 2)
                .consumer(rec -> {
                    if (++seen[0] == 100) {
                        long t0 = System.nanoTime();
                        self[0].close();
                        closeNanos.set(System.nanoTime() - t0);
                    }
                })
                .build();
        self[0] = p;
        p.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!(closeNanos.get() >= 0 && p.rings().stream().allMatch(RecordRing::isFreed))
                && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(closeNanos.get()).as("the consumer's close() returned").isNotNegative();
        p.close(); // waits for the first close, if it still runs
        assertThat(anyThreadAlive("rec-self-close")).isFalse();
        assertThat(p.rings()).as("rings freed, not leaked").allMatch(RecordRing::isFreed);
        assertThat(Duration.ofNanos(closeNanos.get())).as("close() on the consumer's own thread does not wait for it")
                .isLessThan(Duration.ofMillis(EngineConfiguration.CLOSE_TIMEOUT_MILLIS));
    }

    /**
     * A start that races a close (it passed its check of the closed flag, then the close ran to the end on another
     * thread) must not start threads: the close has freed the rings they would write and will not join them.
     * The test holds the pipeline's thread-list lock to hold start between its check and its threads' start.
     */
    @Test
    void shouldNotStartThreadsAfterARacingCloseFreedTheRings() throws Exception {
        RecordPipeline p = RecordPipelineBuilder.named("rec-start-close").recordLength(8).ringCapacity(16)
                .source(rec -> true) // endless
                .consumer(rec -> { })
                .build();
        Field field = RecordPipeline.class.getDeclaredField("threads");
        field.setAccessible(true);
        Object startLock = field.get(p);
        AtomicReference<Object> started = new AtomicReference<>();
        Thread starter;
        synchronized (startLock) {
            starter = Thread.ofPlatform().name("starter").start(() -> {
                try {
                    p.start();
                    started.set("started");
                } catch (RuntimeException e) {
                    started.set(e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (starter.getState() != Thread.State.BLOCKED && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // past its check of the closed flag, waiting for the lock we hold
            }
            assertThat(starter.getState()).as("start() waits for the thread-list lock").isEqualTo(Thread.State.BLOCKED);
            p.close(); // the whole close, while start() waits (the lock is reentrant for this thread)
            assertThat(p.rings()).allMatch(RecordRing::isFreed);
        }
        starter.join(10_000);
        assertThat(started.get()).as("start() after the close freed the rings")
                .isInstanceOf(IllegalStateException.class);
        assertThat(anyThreadAlive("rec-start-close")).isFalse();
    }
}
