package org.spdl4j.examples.slots;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.PoolRegistry;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

/**
 * A label function that throws fails its own item in the assign stage: the item is released once, it takes no slot
 * (a claimed slot nobody fills would keep its batch from ever being published, and that batch's lease out of its
 * pool), and every other item is delivered.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LabelFailureTest {
    @Test
    void shouldReleaseTheItemAndClaimNoSlotWhenItsLabelThrows() {
        ConcurrentMap<Integer, Integer> releases = new ConcurrentHashMap<>();
        List<Integer> delivered = new ArrayList<>();
        int batches = 0;
        String name = "label-failure";
        try (SlotBatchLoader<Integer> loader = new SlotBatchLoader<>(name,
                IntStream.range(0, 16).boxed().toList(), BatchDescriptor.of(4, DType.I32, 1),
                (item, address, length) -> UnsafeApi.putInt(address, item),
                item -> {
                    if (item == 5) {
                        throw new IllegalArgumentException("no label for item 5 (test)");
                    }
                    return item;
                },
                item -> releases.merge(item, 1, Integer::sum),
                SlotLoaderOptions.defaults().withFillConcurrency(2), DirectMemoryAllocator.INSTANCE)) {
            for (Batch batch : loader) {
                try (batch) {
                    batches++;
                    for (int i = 0; i < batch.size(); i++) {
                        delivered.add(loader.label(batch, i));
                    }
                }
            }
        }
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(
            IntStream.range(0, 16).filter(i -> i != 5).boxed().toList());
        assertThat(batches).isEqualTo(4);
        assertThat(releases).hasSize(16).allSatisfy((item, count) -> assertThat(count).as("releases of " + item)
            .isEqualTo(1));
        assertThat(PoolRegistry.livePools()).extracting(BufferPool::name).doesNotContain(name + "-batches");
    }
}
