package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.batch.Slot;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.ImageLayout;
import org.spdl4j.offheap.testing.NoLeftoversExtension;

@ExtendWith(NoLeftoversExtension.class)
class BatchLabelsTest {
    /**
     * Completion order: batch 0 still filling while batches 1 and 2 complete and are closed, so batches 3 and 4 are
     * claimed with batch 0 open (its sequences 0..1 and batch 4's 8..9 collide in any ring of 8 entries).
     */
    @Test
    void shouldKeepAnOpenBatchsLabelsWhileLaterBatchesCompleteFirst() {
        BatchDescriptor layout = BatchDescriptor.images(2, ImageLayout.NHWC, 2, 2, 1, DType.U8);
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("labels-test").sizeClass(layout.batchBytes(), 4)
                .build());
             BatchAssembler assembler = BatchAssembler.builder(pool, layout).batchesInFlight(4)
                 .acquireTimeout(Duration.ofSeconds(5)).build()) {
            BatchLabels labels = new BatchLabels(4, 2);
            Slot[] first = new Slot[2];
            for (int i = 0; i < 2; i++) {
                first[i] = assembler.claim();
                labels.put(first[i], 100 + i);
            }
            for (int k = 1; k <= 4; k++) {
                Slot a = assembler.claim();
                labels.put(a, 100 + 2 * k);
                Slot b = assembler.claim();
                labels.put(b, 100 + 2 * k + 1);
                a.complete();
                Batch done = b.complete();
                assertThat(labels.get(done, 0)).isEqualTo(100 + 2 * k);
                assertThat(labels.get(done, 1)).isEqualTo(100 + 2 * k + 1);
                done.close();
            }
            first[0].complete();
            Batch zero = first[1].complete();
            assertThat(zero.firstSequence()).isZero();
            assertThat(labels.get(zero, 0)).isEqualTo(100);
            assertThat(labels.get(zero, 1)).isEqualTo(101);
            zero.close();
        }
    }
}
