package org.spdl4j.examples.slots;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.offheap.tensor.BatchDescriptor;

/**
 * Describes {@link SlotStages} (from {@link SlotStages#builder(String)}); {@link #open()} checks that the required
 * parts are set and opens the batch pool. Required: {@link #layout} and {@link #writer}; the rest has defaults.
 * <b>Threading:</b> not thread-safe, fill it in on one thread.
 *
 * @param <I> the item type
 */
public final class SlotStagesBuilder<I> {
    // Package-private: read once by SlotStages' constructor, from open(), after the checks.
    final String name;
    String fillStage = SlotStages.DEFAULT_FILL_STAGE;
    BatchDescriptor layout;
    int batchesInFlight = SlotStages.DEFAULT_BATCHES_IN_FLIGHT;
    boolean dropLast;
    MemoryAllocator allocator = DirectMemoryAllocator.INSTANCE;
    SlotWriter<? super I> writer;
    ToIntFunction<? super I> labelOf = item -> 0;
    Consumer<? super I> release = item -> { };

    SlotStagesBuilder(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /**
     * Names the fill stage (default {@value SlotStages#DEFAULT_FILL_STAGE}), as users see it in stats ("decode").
     *
     * @param stage the name
     * @return this builder
     */
    public SlotStagesBuilder<I> fillStage(String stage) {
        this.fillStage = Objects.requireNonNull(stage, "fill stage");
        return this;
    }

    /**
     * Sets the batch layout: batch size and one sample's type and shape. Required.
     *
     * @param descriptor the layout
     * @return this builder
     */
    public SlotStagesBuilder<I> layout(BatchDescriptor descriptor) {
        this.layout = descriptor;
        return this;
    }

    /**
     * Sets how many batches are allocated at once (default {@value SlotStages#DEFAULT_BATCHES_IN_FLIGHT}), the bound on
     * batch memory.
     *
     * @param n at least 1
     * @return this builder
     */
    public SlotStagesBuilder<I> batchesInFlight(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("slot stages '" + name + "': batchesInFlight must be >= 1, got "
                + n);
        }
        this.batchesInFlight = n;
        return this;
    }

    /**
     * Drops a partial last batch instead of publishing it (default false).
     *
     * @param drop whether to drop it
     * @return this builder
     */
    public SlotStagesBuilder<I> dropLast(boolean drop) {
        this.dropLast = drop;
        return this;
    }

    /**
     * Sets where batch memory comes from (default direct memory; pinned memory for GPU copies).
     *
     * @param memory the allocator
     * @return this builder
     */
    public SlotStagesBuilder<I> allocator(MemoryAllocator memory) {
        this.allocator = Objects.requireNonNull(memory, "allocator");
        return this;
    }

    /**
     * Sets what writes one item's sample into its slot. Required.
     *
     * @param slotWriter the writer
     * @return this builder
     */
    public SlotStagesBuilder<I> writer(SlotWriter<? super I> slotWriter) {
        this.writer = slotWriter;
        return this;
    }

    /**
     * Sets the label of an item (default 0 for every item).
     *
     * @param label the label function
     * @return this builder
     */
    public SlotStagesBuilder<I> labels(ToIntFunction<? super I> label) {
        this.labelOf = Objects.requireNonNull(label, "labels");
        return this;
    }

    /**
     * Sets what gives back what an item holds once written or failed (default: nothing).
     *
     * @param releaser called once per item
     * @return this builder
     */
    public SlotStagesBuilder<I> release(Consumer<? super I> releaser) {
        this.release = Objects.requireNonNull(releaser, "release");
        return this;
    }

    /**
     * Opens the batch pool and the assembler (no stage runs yet).
     *
     * @return the stages, to {@link SlotStages#append append} to a pipeline and to {@link SlotStages#close close}
     * @throws IllegalStateException when a required part is missing (the message names each one)
     */
    public SlotStages<I> open() {
        String missing = (layout == null ? " layout(BatchDescriptor)" : "")
            + (writer == null ? " writer(SlotWriter)" : "");
        if (!missing.isEmpty()) {
            throw new IllegalStateException("slot stages '" + name + "' are missing:" + missing
                + "; set them on SlotStages.builder(\"" + name + "\") before open()");
        }
        return new SlotStages<>(this);
    }
}
