package org.spdl4j.offheap.batch;

import org.spdl4j.offheap.tensor.DType;

/**
 * Decodes one encoded sample straight into its slot of a batch buffer: the decode step of a loader. Media decoders
 * (images, video clips, audio clips) implement it; so may a user's own decoder. The loader lays its batches out from
 * {@link #dtype()} and {@link #sampleShape()}: {@code [batch, ...sampleShape]}, C order.
 *
 * <p><b>Threading:</b> {@link #decode} is called by many workers at once, each with a different sample and slot; an
 * implementation keeps per-thread native state (FFmpeg contexts) per thread. <b>Failure:</b> throwing fails only this
 * sample (the batch is published without it, the failure counted on the decode stage); the message should name the
 * input ({@link EncodedSample#key()}). <b>Ownership:</b> the loader that takes a decoder closes it once every decode
 * has returned.
 */
public interface SlotDecoder extends AutoCloseable {
    /** {@return the element type of a decoded sample} */
    DType dtype();

    /** {@return the shape of one decoded sample, e.g. {@code [224, 224, 3]}; a fresh array the caller may keep} */
    long[] sampleShape();

    /**
     * Decodes one sample into its slot.
     *
     * @param sample      the encoded sample, valid during this call only
     * @param destination the first byte of the sample's slot
     * @param length      bytes in the slot: the product of {@link #sampleShape()} times the element size
     */
    void decode(EncodedSample sample, long destination, int length);

    /**
     * {@return whether this decoder opens local files itself ({@link EncodedSample#path()}) instead of being given
     * their bytes: a video decoder that seeks needs the file, not a copy of it in memory; default false}
     */
    default boolean readsFiles() {
        return false;
    }

    /** Frees native state (per-thread contexts); called once, after every {@link #decode} has returned. */
    @Override
    default void close() {
    }
}
