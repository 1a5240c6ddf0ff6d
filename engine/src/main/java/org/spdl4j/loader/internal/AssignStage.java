package org.spdl4j.loader.internal;

import org.spdl4j.engine.Aggregator;
import org.spdl4j.offheap.PoolExhaustedException;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.batch.Slot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assign stage (one thread): gives each item, in arrival order, its {@link Slot} in a batch before it is decoded,
 * and parks the item in the {@link SlotTable} at that slot. Emits the slot; at end of stream emits the partial last
 * batch when sealing it already completed it (every slot settled), else nothing.
 *
 * <p>Its output is therefore a {@link Slot} or, once, a {@link org.spdl4j.offheap.batch.Batch}: the decode stage tells
 * them apart. <b>Allocation:</b> none (slots and batches are the assembler's). <b>Blocking:</b> in
 * {@link BatchAssembler#claim()} while every batch is in flight: back-pressure from the consumer, for as long as the
 * consumer holds them (a training loop may pause for an evaluation of any length); each time the assembler's wait
 * runs out a warning says who holds the batches, and the claim waits again. Only the loader's close ends the wait:
 * the item is then given back unsettled, and a resumed run loads it again.
 */
final class AssignStage implements Aggregator<LoaderItem, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(AssignStage.class);

    private final String stage;
    private final BatchAssembler assembler;
    private final SlotTable table;
    private final LoaderItemPool items;
    private final LoaderControl control;
    private final Progress progress;

    AssignStage(String stage, BatchAssembler assembler, SlotTable table, LoaderItemPool items, LoaderControl control,
                Progress progress) {
        this.stage = stage;
        this.assembler = assembler;
        this.table = table;
        this.items = items;
        this.control = control;
        this.progress = progress;
    }

    @Override
    public Object add(LoaderItem item) {
        if (item.epochEnd) {
            // Epoch-aligned batches: every item of the epoch has been assigned (the source waited for it), so the
            // batch being filled is the epoch's last. Sealed here, it goes out when its slots complete (or now).
            items.release(item);
            Object sealed = assembler.flush();
            control.passed(); // the source waits for the mark before the next epoch's first item
            return sealed;
        }
        Slot slot;
        for (;;) {
            try {
                slot = assembler.claim();
                break;
            } catch (PoolExhaustedException e) {
                if (e.getCause() == null && !control.isClosing() && !Thread.currentThread().isInterrupted()) {
                    // The wait ran out, nothing else: the consumer still holds every batch. Losing the sample here
                    // would leave a hole in the epoch that no checkpoint could close; wait on, and say why.
                    LOG.warn("{}: sample {} still waits for a batch: {}", stage, item, e.getMessage());
                    continue;
                }
                failed(item);
                throw e;
            } catch (RuntimeException | Error e) {
                failed(item);
                throw e;
            }
        }
        table.put(slot, item); // once claimed, a slot must reach the table, or nobody settles it
        control.passed();
        return slot;
    }

    /**
     * The item never reached the table: retired (the engine's failure log and listener still read its key), and
     * settled unless the loader is closing (then a resumed run loads it again).
     */
    private void failed(LoaderItem item) {
        control.readFailed(item, items, progress);
    }

    @Override
    public Object flush() {
        return assembler.flush();
    }
}
