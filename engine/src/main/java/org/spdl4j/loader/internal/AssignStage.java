package org.spdl4j.loader.internal;

import org.spdl4j.engine.Aggregator;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.batch.Slot;

/**
 * The assign stage (one thread): gives each item, in arrival order, its {@link Slot} in a batch before it is decoded,
 * and parks the item in the {@link SlotTable} at that slot. Emits the slot; at end of stream emits the partial last
 * batch when sealing it already completed it (every slot settled), else nothing.
 *
 * <p>Its output is therefore a {@link Slot} or, once, a {@link org.spdl4j.offheap.batch.Batch}: the decode stage tells
 * them apart. <b>Allocation:</b> none (slots and batches are the assembler's). <b>Blocking:</b> in
 * {@link BatchAssembler#claim()} while every batch is in flight: back-pressure from the consumer.
 */
final class AssignStage implements Aggregator<LoaderItem, Object> {
    private final BatchAssembler assembler;
    private final SlotTable table;
    private final LoaderItemPool items;

    AssignStage(BatchAssembler assembler, SlotTable table, LoaderItemPool items) {
        this.assembler = assembler;
        this.table = table;
        this.items = items;
    }

    @Override
    public Object add(LoaderItem item) {
        Slot slot;
        try {
            slot = assembler.claim();
        } catch (RuntimeException e) {
            items.release(item); // the item never reached the table: give its memory back here
            throw e;
        }
        table.put(slot, item); // once claimed, a slot must reach the table, or nobody settles it
        return slot;
    }

    @Override
    public Object flush() {
        return assembler.flush();
    }
}
