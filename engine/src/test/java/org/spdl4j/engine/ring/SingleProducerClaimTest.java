package org.spdl4j.engine.ring;

import static org.assertj.core.api.Assertions.assertThat;

import com.lmax.disruptor.YieldingWaitStrategy;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;

/**
 * A ring's only producer claims its slots itself ({@link BoundedPublisher#ownsClaims()}): claims go up to a ring's
 * worth past the slowest consumer and no further, nothing claimed is visible before it is published, the run methods
 * and the per-item claim share one counter, and written but unpublished slots go to the close-time sweep once.
 */
class SingleProducerClaimTest {

    private static BoundedPublisher publisher(ItemLink link, RunFlag running) {
        return link.publisher(new BusySpinIdleStrategy(), running);
    }

    @Test
    void shouldClaimARingsWorthPastTheConsumerAndTheNextSlotOnlyOnceTheConsumerReleasedOne() {
        ItemLink link = new ItemLink("claims", 8, false, 1, new YieldingWaitStrategy());
        BoundedPublisher out = publisher(link, new RunFlag());
        SingleConsumerPoller poller = new SingleConsumerPoller(link);
        assertThat(out.ownsClaims()).isTrue();
        for (int i = 0; i < 8; i++) {
            assertThat(out.tryClaim()).isEqualTo(i);
            out.slots().set(i, "item-" + i, 0);
        }
        assertThat(out.tryClaim()).as("a ring's worth claimed, none released").isEqualTo(-1);
        assertThat(poller.poll()).as("claimed and written, not published").isFalse();

        out.publishRange(0, 7);
        for (int i = 0; i < 3; i++) {
            assertThat(poller.poll()).isTrue();
            assertThat(poller.take()).isEqualTo("item-" + i);
            poller.release();
        }
        assertThat(out.tryClaim()).as("slot 0 is free again").isEqualTo(8);
        assertThat(out.claimLimit()).as("the consumer released 0..2").isEqualTo(2 + 8);
    }

    @Test
    void shouldShareOneCounterBetweenARunLoopAndPerItemClaims() {
        ItemLink link = new ItemLink("claims", 16, false, 1, new YieldingWaitStrategy());
        BoundedPublisher out = publisher(link, new RunFlag());
        long o = out.claimedTo();
        long limit = out.claimLimit();
        assertThat(o).isEqualTo(-1);
        if (o == limit) {
            limit = out.refreshClaimLimit();
        }
        assertThat(limit).as("nothing consumed yet: the first 16 slots").isEqualTo(15);
        for (int i = 0; i < 5; i++) {
            out.slots().set(++o, i, 0);
        }
        out.claimedThrough(o);
        long next = out.tryClaim();
        assertThat(next).as("the next claim follows the run's").isEqualTo(5);
        out.slots().set(next, "five", 0);
        out.publishRange(0, 5);
        assertThat(out.publish("after", 0)).isTrue(); // claims 6, writes and publishes it

        SingleConsumerPoller poller = new SingleConsumerPoller(link);
        List<Object> got = new ArrayList<>();
        while (poller.poll()) {
            got.add(poller.take());
            poller.release();
        }
        assertThat(got).containsExactly(0, 1, 2, 3, 4, "five", "after");
    }

    @Test
    void shouldLeaveWrittenUnpublishedSlotsToTheCloseSweepExactlyOnce() {
        ItemLink link = new ItemLink("claims", 8, false, 1, new YieldingWaitStrategy());
        BoundedPublisher out = publisher(link, new RunFlag());
        SingleConsumerPoller poller = new SingleConsumerPoller(link);
        assertThat(out.publish("published", 0)).isTrue();
        long o = out.claimedTo();
        out.slots().set(++o, "written-1", 0);
        out.slots().set(++o, "written-2", 0);
        out.claimedThrough(o); // the worker stopped before publishing them

        assertThat(poller.poll()).isTrue();
        assertThat(poller.take()).isEqualTo("published");
        poller.release();
        assertThat(poller.poll()).as("written, never published").isFalse();
        List<Object> swept = new ArrayList<>();
        assertThat(link.drainUntaken(swept::add)).isEqualTo(2);
        assertThat(swept).containsExactlyInAnyOrder("written-1", "written-2");
        assertThat(link.drainUntaken(swept::add)).as("nothing swept twice").isZero();
    }
}
