package org.spdl4j.examples.slots;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.PoolRegistry;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

/**
 * A release that throws for items still parked at their slots when the loader closes early must not stop close half
 * way: every parked item is still offered to the release, and the assembler and the batch pool are still freed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CloseWithFailingReleaseTest {
    @Test
    void shouldReleaseEveryParkedItemAndFreeTheBatchPoolWhenAReleaseThrows() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Set<Integer> offered = ConcurrentHashMap.newKeySet();
        SlotWriter<Integer> blocked = (item, address, length) -> {
            inside.countDown();
            try {
                never.await(); // until close interrupts it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted (test)", e);
            }
        };
        String name = "failing-release";
        SlotBatchLoader<Integer> loader = new SlotBatchLoader<>(name, IntStream.range(0, 8).boxed().toList(),
            BatchDescriptor.of(2, DType.U8, 64), blocked, i -> 0, item -> {
                offered.add(item);
                throw new IllegalStateException("release of " + item + " failed (test)");
            }, SlotLoaderOptions.defaults().withFillConcurrency(1), DirectMemoryAllocator.INSTANCE);
        loader.pipeline().start();
        assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
        while (assignedSoFar(loader) < 4) { // item 0 in the writer, at least 1..3 parked at their slots
            Thread.sleep(5);
        }

        loader.close();

        assertThat(loader.pipeline().isTerminated()).isTrue();
        assertThat(offered).as("items offered to the release").containsAll(List.of(0, 1, 2, 3));
        assertThat(PoolRegistry.livePools()).extracting(BufferPool::name).doesNotContain(name + "-batches");
    }

    private static long assignedSoFar(SlotBatchLoader<Integer> loader) {
        for (StageStats s : loader.stats()) {
            if (s.stage().equals(SlotStages.ASSIGN_STAGE)) {
                return s.itemsOut();
            }
        }
        throw new AssertionError("no assign stage in " + loader.stats());
    }
}
