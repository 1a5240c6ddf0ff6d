package org.spdl4j.examples.slots;

import java.util.concurrent.atomic.AtomicReference;
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
 * <p><b>Bad input:</b> a writer that throws (an Error included) fails only its slot: counted (the first cause kept),
 * logged with the item, and the batch is published without it. The slot is settled before the item is released, so a release that throws
 * (logged; an Error too) cannot leave a batch unpublished. <b>Allocation:</b> none on the success path beyond the writer's own.
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
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

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
        Batch done;
        Throwable error = null;
        try {
            writer.write(item, slot.address(), slot.length());
        } catch (Throwable e) { // an Error too (a native library missing): the slot must be settled either way
            error = e;
        }
        // Settle the slot before giving the item back: a release that throws must not leave the slot unresolved
        // (its batch would never be published, and after batchesInFlight such batches the loader would stall).
        if (error == null) {
            done = slot.complete();
        } else {
            failures.increment();
            firstFailure.compareAndSet(null, error);
            if (error instanceof Error) { // fails this sample only, like any other: its batch and the run go on
                LOG.error("{}: dropped sample {} ({})", stage, slot.sequence(), item, error);
            } else {
                LOG.warn("{}: dropped sample {} ({}): {}", stage, slot.sequence(), item, error.toString());
            }
            done = slot.fail(error);
        }
        try {
            release.accept(item);
        } catch (RuntimeException | Error e) { // an Error too: the batch this slot completed must still go out
            LOG.error("{}: releasing sample {} ({}) failed; what it holds may leak", stage, slot.sequence(), item, e);
        }
        return done;
    }

    long failures() {
        return failures.sum();
    }

    /** {@return what the first failed write threw, or {@code null} when none failed} */
    Throwable firstFailure() {
        return firstFailure.get();
    }
}
