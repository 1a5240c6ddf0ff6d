package org.spdl4j.examples.image;

import org.spdl4j.engine.Aggregator;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchAssembler;

/**
 * The assign stage (one thread): gives each image, in arrival order, its slot in a batch before it is decoded, and
 * records its label by sequence number. At end of stream it seals the partial batch; if that batch is already
 * complete it travels downstream on a marker item.
 *
 * <p><b>Allocation:</b> none (slots and batches are the assembler's preallocated objects; the marker is a pooled
 * item). Blocks in {@link BatchAssembler#claim()} when every batch is in flight: back-pressure from the consumer.
 */
final class SlotAssigner implements Aggregator<ImageItem, ImageItem> {
    private final BatchAssembler assembler;
    private final BatchLabels labels;
    private final ImageItemPool items;

    SlotAssigner(BatchAssembler assembler, BatchLabels labels, ImageItemPool items) {
        this.assembler = assembler;
        this.labels = labels;
        this.items = items;
    }

    @Override
    public ImageItem add(ImageItem item) {
        try {
            item.slot = assembler.claim();
        } catch (RuntimeException e) {
            item.bytes.release();
            items.give(item);
            throw e;
        }
        labels.put(item.slot, item.file.label());
        return item;
    }

    @Override
    public ImageItem flush() {
        Batch done = assembler.flush();
        if (done == null) {
            return null;
        }
        try {
            ImageItem marker = items.take();
            marker.flushed = done;
            return marker;
        } catch (InterruptedException e) {
            done.close();
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
