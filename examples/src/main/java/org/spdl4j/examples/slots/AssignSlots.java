package org.spdl4j.examples.slots;

import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.spdl4j.engine.Aggregator;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.batch.Slot;

/**
 * The assign stage (one thread): gives each item, in arrival order, its {@link Slot} in a batch before it is decoded,
 * and parks the item and its label in the {@link InFlightTable} at that slot. Emits the slot; at end of
 * stream emits the partial last batch when sealing it already completed it (every slot filled), else nothing.
 *
 * <p>Its output is therefore a {@link Slot} or, once, a {@link org.spdl4j.offheap.batch.Batch}: the fill stage tells
 * them apart. <b>Allocation:</b> none (slots and batches are the assembler's). <b>Blocking:</b> in
 * {@link BatchAssembler#claim()} while every batch is in flight: back-pressure from the consumer.
 *
 * @param <I> the item type
 */
final class AssignSlots<I> implements Aggregator<I, Object> {
    private final BatchAssembler assembler;
    private final InFlightTable<I> table;
    private final ToIntFunction<? super I> labelOf;
    private final Consumer<? super I> release;

    AssignSlots(BatchAssembler assembler, InFlightTable<I> table, ToIntFunction<? super I> labelOf,
                Consumer<? super I> release) {
        this.assembler = assembler;
        this.table = table;
        this.labelOf = labelOf;
        this.release = release;
    }

    @Override
    public Object add(I item) {
        int label;
        Slot slot;
        try {
            // The label first: once claimed, a slot must reach the table, or nobody fills or fails it and its batch
            // is never published (its lease stays out of the pool for good).
            label = labelOf.applyAsInt(item);
            slot = assembler.claim();
        } catch (RuntimeException e) {
            release.accept(item); // the item never reached the table: give its memory back here
            throw e;
        }
        table.put(slot, item, label);
        return slot;
    }

    @Override
    public Object flush() {
        return assembler.flush();
    }
}
