package org.spdl4j.examples.slots;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.batch.Slot;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

class InFlightTableTest {
    private static final BatchDescriptor PAIRS = BatchDescriptor.of(2, DType.U8, 4);

    /**
     * Completion order: batch 0 still filling (its second item not yet taken) while batches 1..4 complete and are
     * closed, so batches 3 and 4 are claimed with batch 0 open (its sequences 0..1 and batch 4's 8..9 collide in any
     * ring of 8 entries).
     */
    @Test
    void shouldKeepAnOpenBatchsItemsAndLabelsWhileLaterBatchesCompleteFirst() {
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("table-test").sizeClass(PAIRS.batchBytes(), 4)
                .build());
             BatchAssembler assembler = BatchAssembler.builder(pool, PAIRS).batchesInFlight(4)
                 .acquireTimeout(Duration.ofSeconds(5)).build()) {
            InFlightTable<String> table = new InFlightTable<>(assembler.batchesInFlight(), 2);
            Slot[] first = {assembler.claim(), assembler.claim()};
            table.put(first[0], "item0", 100);
            table.put(first[1], "item1", 101);
            assertThat(table.take(first[0])).isEqualTo("item0");
            for (int k = 1; k <= 4; k++) {
                Slot a = assembler.claim();
                table.put(a, "item" + 2 * k, 100 + 2 * k);
                Slot b = assembler.claim();
                table.put(b, "item" + (2 * k + 1), 100 + 2 * k + 1);
                assertThat(table.take(a)).isEqualTo("item" + 2 * k);
                assertThat(table.take(b)).isEqualTo("item" + (2 * k + 1));
                a.complete();
                Batch done = b.complete();
                assertThat(table.label(done, 0)).isEqualTo(100 + 2 * k);
                assertThat(table.label(done, 1)).isEqualTo(100 + 2 * k + 1);
                done.close();
            }
            assertThat(table.take(first[1])).as("the slow sample's item, never overwritten").isEqualTo("item1");
            first[0].complete();
            Batch zero = first[1].complete();
            assertThat(zero.firstSequence()).isZero();
            assertThat(table.label(zero, 0)).isEqualTo(100);
            assertThat(table.label(zero, 1)).isEqualTo(101);
            zero.close();
        }
    }

    @Test
    void shouldDrainOnlyTheItemsNeverTaken() {
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("drain-test").sizeClass(PAIRS.batchBytes(), 2)
                .build());
             BatchAssembler assembler = BatchAssembler.builder(pool, PAIRS).batchesInFlight(2)
                 .acquireTimeout(Duration.ofSeconds(5)).build()) {
            InFlightTable<String> table = new InFlightTable<>(assembler.batchesInFlight(), 2);
            Slot[] slots = new Slot[3];
            for (int i = 0; i < slots.length; i++) {
                slots[i] = assembler.claim();
                table.put(slots[i], "item" + i, i);
            }
            table.take(slots[1]);
            List<String> drained = new ArrayList<>();
            table.drain(drained::add);
            assertThat(drained).containsExactlyInAnyOrder("item0", "item2");
            table.drain(drained::add);
            assertThat(drained).as("a drained entry is empty").hasSize(2);
            for (Slot s : slots) {
                Batch done = s.complete();
                if (done != null) {
                    done.close();
                }
            }
            Batch last = assembler.flush();
            if (last != null) {
                last.close();
            }
        }
    }
}
