package org.spdl4j.examples.slots;

/**
 * Writes one item's sample (decoded pixels, frames, audio) straight into its slot of a batch buffer.
 *
 * <p><b>Threading:</b> called by the fill stage's workers, many at once, each with a different item and slot; an
 * implementation keeps per-thread native state (FFmpeg contexts) per thread. <b>Failure:</b> throwing fails only this
 * sample (the batch is published without it); the message should name the input.
 *
 * @param <I> the item type
 */
@FunctionalInterface
public interface SlotWriter<I> {
    /**
     * Writes the sample.
     *
     * @param item    the item (file, sample bytes)
     * @param address the first byte of the item's slot in the batch buffer
     * @param length  bytes in the slot: one sample of the batch layout
     */
    void write(I item, long address, int length);
}
