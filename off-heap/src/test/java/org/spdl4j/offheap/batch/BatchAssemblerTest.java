package org.spdl4j.offheap.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.PoolExhaustedException;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.testing.PoolLeakExtension;

@ExtendWith(PoolLeakExtension.class)
@Timeout(30)
class BatchAssemblerTest {
    private static final BatchDescriptor FOUR_INTS = BatchDescriptor.of(4, DType.I32, 2);
    private final BufferPool pool = BufferPool.open(PoolConfig.builder("assembler").sizeClass(64, 8)
            .acquireTimeout(Duration.ofMillis(100)).build());
    private final List<Batch> received = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void close() {
        pool.close();
    }

    private BatchAssembler assembler(boolean dropLast) {
        return BatchAssembler.builder(pool, FOUR_INTS).consumer(received::add).dropLast(dropLast).build();
    }

    private static Slot fill(Slot slot) {
        slot.buffer().putInt(0, (int) slot.sequence());
        slot.buffer().putInt(4, ~(int) slot.sequence());
        return slot;
    }

    @Test
    void shouldPublishWhenLastSlotCompletesInAnyOrder() {
        final BatchAssembler assembler = assembler(false);
        final Slot[] slots = new Slot[4];
        for (int i = 0; i < 4; i++) {
            slots[i] = assembler.claim();
            assertThat(slots[i].sequence()).isEqualTo(i);
            assertThat(slots[i].batch()).isSameAs(slots[0].batch());
        }
        for (int i : new int[] {2, 0, 3}) {
            fill(slots[i]);
            slots[i].complete();
        }
        assertThat(received).as("one slot still pending").isEmpty();
        fill(slots[1]);
        slots[1].complete();
        assertThat(received).hasSize(1);
        final Batch b = received.get(0);
        assertThat(b.size()).isEqualTo(4);
        assertThat(b.tensor().shape()).containsExactly(4, 2);
        for (int i = 0; i < 4; i++) {
            assertThat(b.lease().buffer().getInt(i * 8)).isEqualTo(i);
        }
        assertThatThrownBy(slots[1]::complete).hasMessageContaining("completed twice");
        b.close();
        assertThatThrownBy(b::close).hasMessageContaining("closed twice");
    }

    @Test
    void shouldReturnBatchToTheCompletingCallerWhenNoConsumerIsSet() {
        final BatchAssembler assembler = BatchAssembler.builder(pool, FOUR_INTS).build();
        final Slot[] slots = new Slot[6];
        for (int i = 0; i < 6; i++) {
            slots[i] = assembler.claim();
            fill(slots[i]);
        }
        assertThat(slots[3].complete()).isNull();
        assertThat(slots[1].fail(new RuntimeException("bad"))).isNull();
        assertThat(slots[0].complete()).isNull();
        final Batch first = slots[2].complete();
        assertThat(first).as("the last completion of a sealed batch returns it").isNotNull();
        assertThat(first.size()).isEqualTo(3);
        assertThat(first.sequence(0)).isZero();
        assertThat(first.sequence(1)).isEqualTo(2);
        assertThat(first.sequence(2)).isEqualTo(3);
        first.close();

        assertThat(slots[4].complete()).as("partial batch not sealed yet").isNull();
        assertThat(slots[5].complete()).isNull();
        final Batch last = assembler.flush();
        assertThat(last).as("flush of a partial batch whose slots are done returns it").isNotNull();
        assertThat(last.size()).isEqualTo(2);
        assertThat(last.lease().buffer().getInt(0)).isEqualTo(4);
        last.close();
        assertThat(assembler.flush()).isNull();
        assembler.close();
    }

    @Test
    void shouldCompactSurvivorsInInputOrderWhenSamplesFail() {
        final BatchAssembler assembler = assembler(false);
        final Slot[] slots = new Slot[4];
        for (int i = 0; i < 4; i++) {
            slots[i] = assembler.claim();
            slots[i].buffer().putLong(0, -1L); // garbage a failing decoder might leave behind
        }
        final RuntimeException boom = new RuntimeException("corrupt JPEG");
        slots[0].fail(boom);
        fill(slots[3]);
        slots[3].complete();
        slots[2].fail(new RuntimeException("too large"));
        fill(slots[1]);
        slots[1].complete();
        final Batch b = received.get(0);
        assertThat(b.size()).isEqualTo(2);
        assertThat(b.sequence(0)).isEqualTo(1);
        assertThat(b.sequence(1)).isEqualTo(3);
        assertThat(b.lease().buffer().getInt(0)).isEqualTo(1);
        assertThat(b.lease().buffer().getInt(8)).isEqualTo(3);
        assertThat(b.lease().buffer().getInt(12)).isEqualTo(~3);
        assertThat(b.tensor().shape()).containsExactly(2, 2);
        assertThat(b.failedCount()).isEqualTo(2);
        assertThat(b.failedSequence(0)).isZero();
        assertThat(b.failure(0)).isSameAs(boom);
        b.close();
    }

    @Test
    void shouldFlushPartialBatchOrDropItWithDropLast() {
        for (boolean dropLast : new boolean[] {false, true}) {
            received.clear();
            final BatchAssembler assembler = assembler(dropLast);
            final List<Slot> slots = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                slots.add(assembler.claim());
            }
            assembler.close();
            slots.forEach(s -> {
                fill(s);
                s.complete();
            });
            assertThat(received).hasSize(dropLast ? 1 : 2);
            assertThat(assembler.discardedBatches()).isEqualTo(dropLast ? 1 : 0);
            if (!dropLast) {
                assertThat(received.get(1).size()).isEqualTo(2);
                assertThat(received.get(1).sequence(1)).isEqualTo(5);
            }
            received.forEach(Batch::close);
            assertThat(pool.inUse()).isZero();
            assertThatThrownBy(assembler::claim).hasMessageContaining("closed");
        }
    }

    /** A consumer that throws on the last batch, published by close's flush: close still closes, and rethrows. */
    @Test
    void shouldBeClosedWhenTheLastBatchsConsumerThrowsInClose() {
        final ConcurrentLinkedQueue<Batch> handedOn = new ConcurrentLinkedQueue<>();
        final BatchAssembler assembler = BatchAssembler.builder(pool, FOUR_INTS).consumer(b -> {
            handedOn.add(b);
            throw new IllegalStateException("consumer refuses the last batch (test)");
        }).build();
        fill(assembler.claim()).complete(); // a partial batch, every claimed slot complete: the flush publishes it

        assertThatThrownBy(assembler::close).hasMessageContaining("refuses the last batch");
        assertThatThrownBy(assembler::claim).as("closed, though its flush threw").hasMessageContaining("closed");
        assembler.close(); // idempotent: nothing left to flush, nothing thrown
        assertThat(handedOn).hasSize(1); // the batch is its consumer's (see BatchConsumer.onBatch)
        handedOn.poll().close();
        assertThat(pool.inUse()).isZero();
    }

    @Test
    void shouldNotPublishBatchWhoseSamplesAllFailed() {
        final BatchAssembler assembler = assembler(false);
        for (int i = 0; i < 4; i++) {
            assembler.claim().fail(new RuntimeException("bad " + i));
        }
        assertThat(received).isEmpty();
        assertThat(assembler.discardedBatches()).isEqualTo(1);
        assertThat(pool.inUse()).isZero();
    }

    /** The owner of the samples hears of each batch dropped (every sample failed, or dropLast), before it goes. */
    @Test
    void shouldTellTheDropListenerOfEverySampleOfADroppedBatch() {
        final List<String> told = new ArrayList<>();
        final BatchAssembler assembler = BatchAssembler.builder(pool, FOUR_INTS).consumer(received::add)
                .onDropped(b -> {
                    for (int k = 0; k < b.size(); k++) {
                        told.add(b.sequence(k) + ":held");
                    }
                    for (int k = 0; k < b.failedCount(); k++) {
                        told.add(b.failedSequence(k) + ":" + b.failure(k).getMessage());
                    }
                    assertThat(pool.inUse()).as("the batch's lease is still held while the listener runs").isPositive();
                }).dropLast(true).build();
        for (int i = 0; i < 4; i++) {
            assembler.claim().fail(new RuntimeException("bad " + i));
        }
        assertThat(told).containsExactly("0:bad 0", "1:bad 1", "2:bad 2", "3:bad 3");
        // a batch with one good sample is published, not reported; a partial batch dropLast drops is reported
        for (int i = 0; i < 4; i++) {
            final Slot s = assembler.claim();
            if (i == 2) {
                fill(s).complete();
            } else {
                s.fail(new RuntimeException("bad " + (4 + i)));
            }
        }
        assertThat(told).hasSize(4);
        fill(assembler.claim()).complete();
        assembler.claim().fail(new RuntimeException("bad 9"));
        assembler.flush();
        assertThat(told).hasSize(6).endsWith("8:held", "9:bad 9");
        assertThat(received).hasSize(1);
        received.forEach(Batch::close);
        assertThat(pool.inUse()).isZero();
    }

    /**
     * A claim interrupted while every batch is out says so, with an InterruptedException cause, keeps the thread's
     * interrupt flag, and tells a batch still filling (its producer not done) from one published and not closed.
     */
    @Test
    void shouldSayInterruptedKeepTheFlagAndCountBatchesStillFilling() {
        final BatchAssembler assembler = BatchAssembler.builder(pool, BatchDescriptor.of(1, DType.I32, 2))
                .consumer(received::add).batchesInFlight(1).acquireTimeout(Duration.ofSeconds(10)).build();
        final Slot first = assembler.claim(); // the only batch: claimed, not completed
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(assembler::claim).isInstanceOf(PoolExhaustedException.class)
                    .hasMessageContaining("interrupted")
                    .hasMessageContaining("1 still filling, 0 published and not yet closed")
                    .hasCauseInstanceOf(InterruptedException.class);
            assertThat(Thread.currentThread().isInterrupted()).as("the interrupt flag is kept").isTrue();
        } finally {
            Thread.interrupted();
        }
        first.complete();
        received.get(0).close();
        assembler.close();
    }

    @Test
    void shouldApplyBackPressureWhenConsumersHoldEveryBatch() {
        final BatchAssembler assembler = BatchAssembler.builder(pool, FOUR_INTS).consumer(received::add)
                .batchesInFlight(1).acquireTimeout(Duration.ofMillis(50)).build();
        for (int i = 0; i < 4; i++) {
            assembler.claim().complete();
        }
        assertThatThrownBy(assembler::claim).isInstanceOf(PoolExhaustedException.class)
                .hasMessageContaining("all 1 batches in flight").hasMessageContaining("close()")
                .hasMessageContaining("0 still filling, 1 published and not yet closed");
        received.get(0).close();
        final Slot next = assembler.claim();
        assertThat(next.sequence()).isEqualTo(4);
        assembler.close();
        next.complete();
        received.get(1).close();
    }

    /**
     * A consumer that hands the batch on and then throws: the batch is its new owner's, so the assembler must not
     * close it (that would free the memory the owner reads, and once the object is reused, let the owner's close
     * close the next batch). The exception still reaches the completing thread; the owner's close works.
     */
    @Test
    void shouldLeaveTheBatchToItsHolderWhenTheConsumerThrowsAfterHandingItOn() {
        final ConcurrentLinkedQueue<Batch> handedOn = new ConcurrentLinkedQueue<>();
        final int[] calls = {0};
        final BatchAssembler assembler = BatchAssembler.builder(pool, FOUR_INTS).batchesInFlight(1).consumer(b -> {
            handedOn.add(b);
            if (calls[0]++ == 0) {
                throw new IllegalStateException("consumer bug after the hand-off");
            }
        }).build();
        for (int i = 0; i < 3; i++) {
            fill(assembler.claim()).complete();
        }
        final Slot last = fill(assembler.claim());
        assertThatThrownBy(last::complete).hasMessageContaining("after the hand-off");
        assertThat(handedOn).hasSize(1);
        assertThat(pool.inUse()).as("the batch's lease, still its owner's").isEqualTo(1);
        final Batch owned = handedOn.poll();
        assertThat(owned.lease().buffer().getInt(0)).as("still readable by its owner").isEqualTo(0);
        owned.close();
        assertThat(pool.inUse()).isZero();
        for (int i = 0; i < 4; i++) { // the object is back for the next batch
            fill(assembler.claim()).complete();
        }
        final Batch next = handedOn.poll();
        assertThat(next.firstSequence()).isEqualTo(4);
        next.close();
    }

    /** A lease released by hand before close makes close throw, but the batch object still goes back. */
    @Test
    void shouldRecycleTheBatchObjectWhenItsLeaseWasReleasedByHand() {
        final BatchAssembler assembler = BatchAssembler.builder(pool, FOUR_INTS).batchesInFlight(1)
                .consumer(received::add).build();
        for (int i = 0; i < 4; i++) {
            fill(assembler.claim()).complete();
        }
        final Batch b = received.get(0);
        b.lease().release(); // misuse
        assertThatThrownBy(b::close).isInstanceOf(RuntimeException.class);
        for (int i = 0; i < 4; i++) { // the only batch object is free again
            fill(assembler.claim()).complete();
        }
        assertThat(received).hasSize(2);
        received.get(1).close();
    }

    /**
     * A consumer that hands the batch on (here: closes it, as its new owner would) and then throws must not get the
     * object's next batch closed on its behalf: the assembler has reopened the same object for batch 1 by then.
     */
    @Test
    void shouldNotCloseTheObjectsNextBatchWhenAConsumerThrowsAfterHandingItsBatchOn() {
        final List<Slot> nextSlots = new ArrayList<>();
        final int[] calls = {0};
        final BatchAssembler[] self = new BatchAssembler[1];
        self[0] = BatchAssembler.builder(pool, FOUR_INTS).batchesInFlight(1).consumer(b -> {
            if (calls[0]++ == 0) {
                b.close(); // handed on and closed by its new owner
                for (int i = 0; i < 4; i++) {
                    nextSlots.add(self[0].claim()); // the object is reopened for batch 1
                }
                throw new IllegalStateException("consumer failed after the hand-off");
            }
            received.add(b);
        }).build();
        for (int i = 0; i < 3; i++) {
            self[0].claim().complete();
        }
        final Slot last = self[0].claim();
        assertThatThrownBy(last::complete).hasMessageContaining("after the hand-off");
        assertThat(nextSlots).hasSize(4);
        for (final Slot slot : nextSlots) {
            fill(slot);
            slot.complete();
        }
        assertThat(received).hasSize(1);
        final Batch next = received.get(0);
        assertThat(next.firstSequence()).isEqualTo(4);
        assertThat(next.size()).isEqualTo(4);
        assertThat(next.lease().buffer().getInt(0)).as("batch 1's lease still live and filled").isEqualTo(4);
        next.close();
        assertThat(pool.inUse()).isZero();
    }

    /**
     * Batch 0 stays open while batches 1 and 2 complete and are closed, so batch 2 reuses batch 1's object: the two
     * open batches have different ordinals, each object keeps its ordinal for life, and ordinals stay below
     * {@code batchesInFlight}.
     */
    @Test
    void shouldGiveEachBatchObjectAStableOrdinalBelowBatchesInFlight() {
        final BatchAssembler assembler = BatchAssembler.builder(pool, FOUR_INTS).consumer(received::add)
                .batchesInFlight(2).build();
        assertThat(assembler.batchesInFlight()).isEqualTo(2);
        final Slot[] zero = new Slot[4];
        for (int i = 0; i < 4; i++) {
            zero[i] = assembler.claim();
        }
        final List<Integer> overtaking = new ArrayList<>();
        for (int k = 1; k <= 2; k++) {
            Batch b = null;
            for (int i = 0; i < 4; i++) {
                final Slot s = assembler.claim();
                b = s.batch();
                s.complete();
            }
            overtaking.add(b.ordinal());
            assertThat(received).last().isSameAs(b);
            b.close();
        }
        final Batch first = zero[0].batch();
        assertThat(overtaking).as("both overtaking batches used the one free object").containsExactly(
                1 - first.ordinal(), 1 - first.ordinal());
        assertThat(first.ordinal()).isBetween(0, 1);
        for (Slot s : zero) {
            s.complete();
        }
        assertThat(received).last().isSameAs(first);
        assertThat(first.ordinal()).as("unchanged while the other object was reused").isEqualTo(1 - overtaking.get(0));
        first.close();
        assembler.close();
    }

    @Test
    void shouldMapHeldSamplesToTheSlotsTheyWereWrittenInto() {
        final BatchAssembler assembler = assembler(false);
        final Slot[] slots = new Slot[4];
        for (int i = 0; i < 4; i++) {
            slots[i] = assembler.claim();
        }
        slots[0].complete();
        slots[1].fail(new IllegalArgumentException("bad sample"));
        slots[2].complete();
        slots[3].complete();
        final Batch b = received.get(0);
        assertThat(b.size()).isEqualTo(3);
        assertThat(new int[] {b.slotIndex(0), b.slotIndex(1), b.slotIndex(2)}).containsExactly(0, 2, 3);
        assertThatThrownBy(() -> b.slotIndex(3)).isInstanceOf(IndexOutOfBoundsException.class);
        b.close();
    }
}
