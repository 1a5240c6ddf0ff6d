package org.spdl4j.loader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.loader.LoaderState;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.PoolExhaustedException;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.batch.Slot;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

/**
 * The assign stage waits for a batch as long as the consumer holds them all (no sample lost to a long pause), and
 * only the loader's close ends the wait: the item then goes back unsettled, still named for the failure log.
 */
@Timeout(30)
class AssignStageTest {
    private final BatchDescriptor layout = BatchDescriptor.of(1, DType.U8, 4);
    private BufferPool batches;
    private BatchAssembler assembler;
    private final SlotTable table = new SlotTable(1, 1, java.util.List.of());
    private final LoaderItemPool items = new LoaderItemPool(8);
    private final LoaderControl control = new LoaderControl();
    private final Progress progress = new Progress(LoaderState.start(0, 0, 1), 3);
    private AssignStage assign;

    @BeforeEach
    void open() {
        batches = BufferPool.open(PoolConfig.builder("assign-batches").sizeClass(layout.batchBytes(), 1)
            .acquireTimeout(Duration.ofMillis(50)).build());
        assembler = BatchAssembler.builder(batches, layout).batchesInFlight(1).acquireTimeout(Duration.ofMillis(50))
            .build();
        assign = new AssignStage("test:assign", assembler, table, items, control, progress);
    }

    @AfterEach
    void close() {
        assembler.close();
        batches.close();
    }

    private LoaderItem item(String key, long position) {
        return TestItems.named(items, key, position);
    }

    @Test
    void shouldWaitThroughTimeoutsWhileTheConsumerHoldsEveryBatch() throws Exception {
        Slot held = (Slot) assign.add(item("a.jpg", 0)); // its batch is out: the consumer pauses with it
        CompletableFuture<Object> second = CompletableFuture.supplyAsync(() -> assign.add(item("b.jpg", 1)));
        Thread.sleep(300); // six of the assembler's 50 ms waits
        assertThat(second).as("still waiting, not failed").isNotDone();
        table.take(held);
        held.complete().close(); // the consumer is back
        Slot slot = (Slot) second.get(10, TimeUnit.SECONDS);
        assertThat(table.take(slot).key).isEqualTo("b.jpg");
        slot.complete().close();
    }

    @Test
    void shouldGiveTheItemBackUnsettledAndNamedWhenTheLoaderCloses() throws Exception {
        Slot held = (Slot) assign.add(item("a.jpg", 0));
        LoaderItem waiting = item("b.jpg", 1);
        CompletableFuture<Object> second = CompletableFuture.supplyAsync(() -> assign.add(waiting));
        Thread.sleep(100);
        control.closing();
        assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(PoolExhaustedException.class);
        assertThat(waiting.key).as("the engine's failure log still names it").isEqualTo("b.jpg");
        table.take(held);
        held.complete().close();
        progress.settle(0, 0);
        progress.settle(0, 2);
        progress.epochEnded(0, 3);
        assertThat(progress.state().encode()).as("position 1 left for a resumed run").contains("0:1");
    }
}
