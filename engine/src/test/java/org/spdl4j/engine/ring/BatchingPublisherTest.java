package org.spdl4j.engine.ring;

import static org.assertj.core.api.Assertions.assertThat;

import com.lmax.disruptor.YieldingWaitStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BatchingPublisherTest {

    /** Items the batch under test reported published, range by range (its callback; the test's thread only). */
    private final List<Integer> ranges = new ArrayList<>();

    private BatchingPublisher batch(ItemLink link, RunFlag running, int capacity) {
        return new BatchingPublisher(link.publisher(new BusySpinIdleStrategy(), running), capacity, ranges::add);
    }

    private int reported() {
        return ranges.stream().mapToInt(Integer::intValue).sum();
    }

    private static List<Object> pollAll(SingleConsumerPoller poller) {
        List<Object> out = new ArrayList<>();
        while (poller.poll()) {
            out.add(poller.take());
            poller.release();
        }
        return out;
    }

    @Test
    void shouldStageForSeveralProducersAndClaimNothingBeforeTheFlush() {
        ItemLink link = new ItemLink("batch", 16, true, 1, new YieldingWaitStrategy());
        BatchingPublisher batch = batch(link, new RunFlag(), 8);
        SingleConsumerPoller poller = new SingleConsumerPoller(link);
        for (int i = 0; i < 5; i++) {
            assertThat(batch.add(i, 0)).isTrue();
        }

        assertThat(link.sequencer().getCursor()).as("nothing claimed: a dropped result could leave no hole")
                .isEqualTo(-1);
        batch.flush();
        assertThat(ranges).as("one range reported").containsExactly(5);
        assertThat(link.sequencer().getCursor()).as("one claim for the range").isEqualTo(4);
        assertThat(pollAll(poller)).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void shouldPublishWhatFitsAndKeepTheRestForTheDiscardHookWhenStoppedWhileFull() {
        ItemLink link = new ItemLink("batch", 4, true, 1, new YieldingWaitStrategy());
        RunFlag running = new RunFlag();
        BatchingPublisher batch = batch(link, running, 8);
        for (int i = 0; i < 6; i++) {
            batch.add(i, 0);
        }
        running.stop(); // nobody consumes: after the first 4 the flush would wait for room; stopped, it gives up

        batch.flush();
        assertThat(reported()).as("the part that fits the ring").isEqualTo(4);
        assertThat(batch.size()).isEqualTo(2);
        List<Object> discarded = new ArrayList<>();
        assertThat(batch.discardStaged(discarded::add)).isEqualTo(2);
        List<Object> swept = new ArrayList<>();
        link.drainUntaken(swept::add);

        assertThat(discarded).containsExactly(4, 5);
        assertThat(swept).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(batch.discardStaged(discarded::add)).as("nothing discarded twice").isZero();
    }

    @Test
    void shouldReportEachRangeAsItIsPublishedNotWhenTheFlushReturns() {
        for (boolean multiProducer : new boolean[] {false, true}) {
            ItemLink link = new ItemLink("batch", 4, multiProducer, 1, new YieldingWaitStrategy());
            RunFlag running = new RunFlag();
            ranges.clear();
            BatchingPublisher batch = batch(link, running, 8);
            SingleConsumerPoller poller = new SingleConsumerPoller(link);
            for (int i = 0; i < 4; i++) {
                assertThat(batch.add(i, 0)).isTrue();
            }
            assertThat(ranges).as("nothing published yet").isEmpty();
            batch.add(4, 0);
            running.stop(); // the flush publishes the 4 that fit, then would wait for room: stopped, it gives up
            batch.flush();
            assertThat(ranges).as("multi-producer: %s", multiProducer).containsExactly(4);
            assertThat(pollAll(poller)).containsExactly(0, 1, 2, 3);
        }
    }

    @Test
    void shouldFlushAFullBatchBeforeAddingTheNextItem() {
        ItemLink link = new ItemLink("batch", 16, true, 1, new YieldingWaitStrategy());
        BatchingPublisher batch = batch(link, new RunFlag(), 2);
        SingleConsumerPoller poller = new SingleConsumerPoller(link);
        batch.add("a", 0);
        batch.add("b", 0);
        assertThat(batch.isFull()).isTrue();

        assertThat(batch.add("c", 0)).isTrue();
        assertThat(pollAll(poller)).containsExactly("a", "b");
        assertThat(batch.size()).isEqualTo(1);
    }

    @Test
    void shouldSplitARunLargerThanTheRingAsTheConsumerMakesRoom() throws Exception {
        for (boolean multiProducer : new boolean[] {false, true}) {
            ItemLink link = new ItemLink("batch", 4, multiProducer, 1, new YieldingWaitStrategy());
            ranges.clear();
            BatchingPublisher batch = batch(link, new RunFlag(), 32);
            SingleConsumerPoller poller = new SingleConsumerPoller(link);
            List<Object> taken = new ArrayList<>();
            java.util.concurrent.atomic.AtomicBoolean giveUp = new java.util.concurrent.atomic.AtomicBoolean();
            // named spdl4j-*: the leftover check fails the class should it outlive it
            Thread consumer = Thread.ofPlatform().daemon(true).name("spdl4j-test-batch-consumer").start(() -> {
                while (taken.size() < 30 && !giveUp.get()) {
                    taken.addAll(pollAll(poller));
                    Thread.onSpinWait();
                }
            });
            try {
                for (int i = 0; i < 30; i++) {
                    assertThat(batch.add(i, 0)).isTrue();
                }
                batch.flush();
                assertThat(reported()).as("every item counted once, also those add() flushed").isEqualTo(30);
                consumer.join(10_000);
            } finally {
                giveUp.set(true); // an item lost or a failed assertion: the consumer must not spin on for good
                consumer.join(10_000);
            }

            assertThat(taken).as("multi-producer: %s", multiProducer).hasSize(30);
            assertThat(consumer.isAlive()).isFalse();
            assertThat(batch.isEmpty()).isTrue();
            assertThat(taken).as("multi-producer: %s", multiProducer)
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 30).boxed().toList());
        }
    }
}
