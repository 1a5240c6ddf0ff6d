package org.spdl4j.engine.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.lmax.disruptor.YieldingWaitStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BatchingPublisherTest {

    private static List<Object> pollAll(SingleConsumerPoller poller) {
        List<Object> out = new ArrayList<>();
        for (ItemSlot slot = poller.poll(); slot != null; slot = poller.poll()) {
            out.add(slot.take());
            poller.release();
        }
        return out;
    }

    @Test
    void shouldMakeNothingVisibleUntilFlushAndThenTheWholeBatchInOrder() {
        ItemLink link = new ItemLink("batch", 16, false, 1, new YieldingWaitStrategy());
        BatchingPublisher batch = new BatchingPublisher(link.publisher(new BusySpinIdleStrategy(), new RunFlag()), 8);
        SingleConsumerPoller poller = new SingleConsumerPoller(link);
        for (int i = 0; i < 5; i++) {
            batch.stage("item-" + i, 7);
        }

        assertThat(poller.poll()).as("staged items are not in the ring").isNull();
        assertThat(batch.flush()).isEqualTo(5);
        assertThat(batch.isEmpty()).isTrue();
        assertThat(link.ring().getCursor()).as("one range published").isEqualTo(4);
        assertThat(pollAll(poller)).containsExactly("item-0", "item-1", "item-2", "item-3", "item-4");
    }

    @Test
    void shouldPublishWhatFitsAndKeepTheRestForTheDiscardHookWhenStoppedWhileFull() {
        ItemLink link = new ItemLink("batch", 4, true, 1, new YieldingWaitStrategy());
        RunFlag running = new RunFlag();
        BatchingPublisher batch = new BatchingPublisher(link.publisher(new BusySpinIdleStrategy(), running), 8);
        for (int i = 0; i < 6; i++) {
            batch.stage(i, 0);
        }
        running.stop(); // nobody consumes: after the first 4 the flush would wait for room; stopped, it gives up

        assertThat(batch.flush()).as("the part that fits the ring").isEqualTo(4);
        assertThat(batch.size()).isEqualTo(2);
        List<Object> discarded = new ArrayList<>();
        assertThat(batch.discardStaged(discarded::add)).isEqualTo(2);
        List<Object> swept = new ArrayList<>();
        link.drainUntaken(swept::add);

        assertThat(discarded).containsExactly(4, 5);
        assertThat(swept).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(batch.isEmpty()).isTrue();
        assertThat(batch.discardStaged(discarded::add)).as("nothing discarded twice").isZero();
    }

    @Test
    void shouldSplitABatchLargerThanTheRingIntoRangesAsTheConsumerMakesRoom() throws Exception {
        ItemLink link = new ItemLink("batch", 4, false, 1, new YieldingWaitStrategy());
        BatchingPublisher batch = new BatchingPublisher(link.publisher(new BusySpinIdleStrategy(), new RunFlag()), 32);
        SingleConsumerPoller poller = new SingleConsumerPoller(link);
        List<Object> taken = new ArrayList<>();
        Thread consumer = Thread.ofPlatform().daemon(true).start(() -> {
            while (taken.size() < 30) {
                taken.addAll(pollAll(poller));
                Thread.onSpinWait();
            }
        });
        for (int i = 0; i < 30; i++) {
            batch.stage(i, 0);
        }

        assertThat(batch.flush()).isEqualTo(30);
        consumer.join(10_000);
        assertThat(consumer.isAlive()).isFalse();
        assertThat(taken).hasSize(30);
        for (int i = 0; i < 30; i++) {
            assertThat(taken.get(i)).isEqualTo(i);
        }
    }

    @Test
    void shouldRefuseToStageIntoAFullBatch() {
        ItemLink link = new ItemLink("batch", 4, false, 1, new YieldingWaitStrategy());
        BatchingPublisher batch = new BatchingPublisher(link.publisher(new BusySpinIdleStrategy(), new RunFlag()), 2);
        batch.stage("a", 0);
        batch.stage("b", 0);

        assertThat(batch.isFull()).isTrue();
        assertThatThrownBy(() -> batch.stage("c", 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("flush");
    }
}
