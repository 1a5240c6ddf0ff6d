package org.spdl4j.examples.slots;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

/**
 * A writer that throws an Error, or a release that throws, fails (or loses nothing of) its own sample only: every
 * batch is still published, with the samples that were written.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FillFailuresTest {
    @Test
    void shouldPublishEveryBatchWhenAWriterThrowsAnErrorOrAReleaseThrows() {
        SlotWriter<Integer> writer = (item, address, length) -> {
            if (item == 5) {
                throw new UnsatisfiedLinkError("codec library missing (test)");
            }
            UnsafeApi.putInt(address, item);
        };
        List<Integer> delivered = new ArrayList<>();
        int batches = 0;
        try (SlotBatchLoader<Integer> loader = new SlotBatchLoader<>("fill-failures",
                IntStream.range(0, 16).boxed().toList(), BatchDescriptor.of(4, DType.I32, 1), writer, item -> item,
                item -> {
                    if (item == 9) {
                        throw new IllegalStateException("released twice (test)");
                    }
                }, SlotLoaderOptions.defaults().withFillConcurrency(2), DirectMemoryAllocator.INSTANCE)) {
            for (Batch batch : loader) {
                try (batch) {
                    batches++;
                    for (int i = 0; i < batch.size(); i++) {
                        delivered.add(loader.label(batch, i));
                    }
                }
            }
            assertThat(loader.fillFailures()).isEqualTo(1);
        }
        assertThat(batches).isEqualTo(4);
        assertThat(delivered).hasSize(15).doesNotContain(5).contains(9);
    }

    /** A release that throws an Error after the last slot of a batch completed must not lose that batch. */
    @Test
    void shouldDeliverTheBatchWhoseLastItemsReleaseThrowsAnError() {
        List<Integer> delivered = new ArrayList<>();
        int batches = 0;
        try (SlotBatchLoader<Integer> loader = new SlotBatchLoader<>("release-error",
                IntStream.range(0, 8).boxed().toList(), BatchDescriptor.of(4, DType.I32, 1),
                (item, address, length) -> UnsafeApi.putInt(address, item), item -> item,
                item -> {
                    if (item == 3) {
                        throw new AssertionError("release of item 3 failed (test)");
                    }
                }, SlotLoaderOptions.defaults().withFillConcurrency(1), DirectMemoryAllocator.INSTANCE)) {
            for (Batch batch : loader) {
                try (batch) {
                    batches++;
                    for (int i = 0; i < batch.size(); i++) {
                        delivered.add(loader.label(batch, i));
                    }
                }
            }
        }
        assertThat(batches).isEqualTo(2);
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 8).boxed().toList());
    }
}
