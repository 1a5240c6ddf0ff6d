package org.spdl4j.examples.slots;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.PoolRegistry;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.testing.LeftoversExpected;

/**
 * A writer that ignores interrupts is still writing into its batch slot when the loader closes: the engine gives up
 * waiting for it after its close timeout, and the loader must then free nothing (leak, loudly): neither the items
 * parked for the other slots (whose memory a release would hand back to a pool) nor the batch memory. The writer
 * finishes its write afterwards into memory that is still the pool's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@LeftoversExpected("the loader must leak its batch pool when a writer outlives close; that leak is what it checks")
class CloseWithStuckWriterTest {
    @Test
    void shouldNotFreeTheBatchMemoryWhileAWriterThatIgnoresInterruptsStillRuns() throws Exception {
        AtomicBoolean inside = new AtomicBoolean();
        AtomicBoolean letGo = new AtomicBoolean();
        AtomicInteger written = new AtomicInteger();
        AtomicInteger released = new AtomicInteger();
        SlotWriter<Integer> stuck = (item, address, length) -> {
            inside.set(true);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!letGo.get() && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // deaf to interrupts, like a native call that does not return
            }
            UnsafeApi.setMemory(address, length, (byte) item.intValue()); // the write close must not pull away
            written.incrementAndGet();
        };
        String name = "stuck-writer";
        SlotBatchLoader<Integer> loader = new SlotBatchLoader<>(name, List.of(1, 2, 3, 4), BatchDescriptor.of(2,
            DType.U8, 4096), stuck, i -> 0, i -> released.incrementAndGet(), SlotLoaderOptions.defaults().withFillConcurrency(1),
            DirectMemoryAllocator.INSTANCE);
        loader.pipeline().start();
        long setUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!inside.get() && System.nanoTime() < setUp) {
            Thread.onSpinWait();
        }
        assertThat(inside.get()).as("the writer is inside its write").isTrue();
        // Every item assigned its slot: 1 in the writer, 2 to 4 parked at theirs, so that close has items it must
        // not release (closing before they are assigned would find none, and the released-count check below
        // would hold whatever close did).
        while (assignedSoFar(loader) < 4 && System.nanoTime() < setUp) {
            Thread.sleep(5);
        }
        assertThat(assignedSoFar(loader)).as("items assigned their slots").isEqualTo(4);

        loader.close(); // returns after the engine's close timeout, the writer still inside

        assertThat(loader.pipeline().isTerminated()).as("the writer's thread outlives close").isFalse();
        assertThat(livePools(name)).as("batch memory kept while a writer may still use it").isNotEmpty();
        assertThat(released.get()).as("items released by close while a writer still runs").isZero();
        letGo.set(true);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!loader.pipeline().isTerminated() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(loader.pipeline().isTerminated()).isTrue();
        assertThat(written.get()).as("the stuck write completed into live memory").isEqualTo(1);
    }

    private static long assignedSoFar(SlotBatchLoader<Integer> loader) {
        for (StageStats s : loader.stats()) {
            if (s.stage().equals(SlotStages.ASSIGN_STAGE)) {
                return s.itemsOut();
            }
        }
        throw new AssertionError("no assign stage in " + loader.stats());
    }

    private static List<String> livePools(String prefix) {
        return PoolRegistry.livePools().stream().map(BufferPool::name).filter(n -> n.startsWith(prefix)).toList();
    }
}
