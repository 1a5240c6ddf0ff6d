package org.spdl4j.examples.image;

import org.spdl4j.engine.source.FileItem;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;

/**
 * The carrier of one image through the loader's stages: source (sets {@link #file} and {@link #seed}), read (fills
 * {@link #bytes}), assign (sets {@link #slot}), decode (writes the pixels into the slot, releases the bytes, recycles
 * this object).
 *
 * <p><b>Ownership:</b> exactly one stage holds an item at a time; the rings between stages publish its fields
 * (a ring's publish is a release store and its read an acquire load), so the fields are plain. Items come from an
 * {@link ImageItemPool} and go back to it, so nothing is allocated per image.
 */
final class ImageItem {
    /** Where the image comes from (set by the source). */
    FileItem file;
    /** The augmentation seed of this image in this epoch (set by the source; 0 when augmentation is off). */
    long seed;
    /** The encoded image in pooled off-heap memory; owned by this item until decode releases it. */
    Lease bytes;
    /** Number of valid bytes in {@link #bytes}. */
    int length;
    /** The batch slot the decoder writes into (set by the assign stage). */
    Slot slot;
    /** Set only on the end-of-stream marker: a partial batch the flush completed on the assign stage. */
    Batch flushed;

    void clear() {
        file = null;
        seed = 0;
        bytes = null;
        length = 0;
        slot = null;
        flushed = null;
    }
}
