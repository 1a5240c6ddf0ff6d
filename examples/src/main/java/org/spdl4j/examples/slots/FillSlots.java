package org.spdl4j.examples.slots;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;

/**
 * The fill stage (many workers): takes a slot's item from the {@link InFlightTable}, has the {@link SlotWriter} write
 * the sample into the slot, releases the item, and completes the slot. Returns the batch when this slot was its last
 * missing sample, else {@code null} (the engine then passes nothing on).
 *
 * <p><b>Bad input:</b> a writer that throws fails only its slot: counted, logged with the item, and the batch is
 * published without it. <b>Allocation:</b> none on the success path beyond the writer's own.
 *
 * @param <I> the item type
 */
final class FillSlots<I> implements Function<Object, Batch> {
    private static final Logger LOG = LoggerFactory.getLogger(FillSlots.class);
    private final String stage;
    private final InFlightTable<I> table;
    private final SlotWriter<? super I> writer;
    private final Consumer<? super I> release;
    private final LongAdder failures = new LongAdder();

    FillSlots(String stage, InFlightTable<I> table, SlotWriter<? super I> writer, Consumer<? super I> release) {
        this.stage = stage;
        this.table = table;
        this.writer = writer;
        this.release = release;
    }

    @Override
    public Batch apply(Object work) {
        if (work instanceof Batch flushed) { // the end-of-stream batch the assign stage sealed complete
            return flushed;
        }
        Slot slot = (Slot) work;
        I item = table.take(slot);
        try {
            writer.write(item, slot.address(), slot.length());
        } catch (RuntimeException e) {
            failures.increment();
            LOG.warn("{}: dropped sample {} ({}): {}", stage, slot.sequence(), item, e.getMessage());
            return slot.fail(e);
        } finally {
            release.accept(item);
        }
        return slot.complete();
    }

    long failures() {
        return failures.sum();
    }
}
