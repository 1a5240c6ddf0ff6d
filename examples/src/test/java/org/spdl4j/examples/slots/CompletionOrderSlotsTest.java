package org.spdl4j.examples.slots;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

/**
 * The fill stage runs in completion order and the assembler reuses whichever batch object is free, so a batch still
 * filling (one slow sample) may be overtaken by later batches, which are delivered, closed, and their objects
 * claimed again for batches numbered {@code batchesInFlight} past the slow one. Per-slot state (the item, its label)
 * must stay with the slow batch's slots all that time: every delivered sample's label is the one of the item written
 * into its slot, and every item is released exactly once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompletionOrderSlotsTest {
    private static final int BATCH = 2;
    private static final int ITEMS = 4 * BATCH;
    /** The second sample of batch 0: its write waits until two later batches have been consumed and closed. */
    private static final int SLOW = 1;

    @Test
    void shouldKeepEachSlotsLabelAndItemWhileLaterBatchesOvertakeAndReuseBatchObjects() throws Exception {
        CountDownLatch laterBatchesClosed = new CountDownLatch(2);
        CountDownLatch slowBatchDelivered = new CountDownLatch(1);
        AtomicBoolean overtaken = new AtomicBoolean();
        AtomicIntegerArray releases = new AtomicIntegerArray(ITEMS);
        SlotWriter<Integer> writer = (item, address, length) -> {
            try {
                if (item == SLOW) {
                    overtaken.set(laterBatchesClosed.await(20, TimeUnit.SECONDS));
                } else if (item >= 3 * BATCH) {
                    // Batch 3 reuses batch 2's object as soon as that is closed, and its fast writes would race the
                    // slow sample's (woken by the same close): wait for batch 0 so the delivery order is fixed.
                    slowBatchDelivered.await(20, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            UnsafeApi.putInt(address, item); // the sample is its item's number: what its label must say
        };
        List<Long> firstSequences = new ArrayList<>();
        List<int[]> labelAndSample = new ArrayList<>();
        SlotLoaderOptions options = new SlotLoaderOptions(2, 2, false, WaitPolicy.BACKOFF);
        try (SlotBatchLoader<Integer> loader = new SlotBatchLoader<>("overtaken", IntStream.range(0, ITEMS).boxed()
                .toList(), BatchDescriptor.of(BATCH, DType.I32, 1), writer, item -> item,
                item -> releases.incrementAndGet(item), options, DirectMemoryAllocator.INSTANCE)) {
            for (Batch batch : loader) {
                try (batch) {
                    firstSequences.add(batch.firstSequence());
                    if (batch.firstSequence() == 0) {
                        slowBatchDelivered.countDown();
                    }
                    for (int i = 0; i < batch.size(); i++) {
                        labelAndSample.add(new int[] {loader.label(batch, i), UnsafeApi.getInt(batch.sampleAddress(i))});
                    }
                }
                laterBatchesClosed.countDown();
            }
        }

        assertThat(overtaken).as("batches 1 and 2 were delivered and closed while batch 0 was filling").isTrue();
        assertThat(firstSequences).containsExactly(2L, 4L, 0L, 6L);
        assertThat(labelAndSample).hasSize(ITEMS)
            .allSatisfy(pair -> assertThat(pair[0]).as("label of the sample holding item %d", pair[1])
                .isEqualTo(pair[1]));
        for (int item = 0; item < ITEMS; item++) {
            assertThat(releases.get(item)).as("releases of item %d", item).isEqualTo(1);
        }
    }
}
