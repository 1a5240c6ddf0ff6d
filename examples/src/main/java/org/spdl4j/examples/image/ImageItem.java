package org.spdl4j.examples.image;

import org.spdl4j.engine.source.FileItem;
import org.spdl4j.offheap.Lease;

/**
 * The carrier of one image through the loader's stages: source (sets {@link #file} and {@link #seed}), read (fills
 * {@link #bytes}), assign (parks it at its batch slot), decode (writes the pixels into the slot); then
 * {@link ImageItemPool#release} gives back its bytes and the item.
 *
 * <p><b>Ownership:</b> exactly one stage holds an item at a time; the rings between stages (and the slot table, after
 * assign) publish its fields (a ring's publish is a release store and its read an acquire load), so the fields are
 * plain. Items come from an {@link ImageItemPool} and go back to it, so nothing is allocated per image.
 */
final class ImageItem {
    /** Where the image comes from (set by the source). */
    FileItem file;
    /** The augmentation seed of this image in this epoch (set by the source; 0 when augmentation is off). */
    long seed;
    /** Its place in input order, its ticket in the read stage's {@code LargeBufferTurns} (INPUT order; else 0). */
    long ticket;
    /** The encoded image in pooled off-heap memory, once read; owned by this item until it is released. */
    Lease bytes;
    /** Number of valid bytes in {@link #bytes}. */
    int length;

    void clear() {
        file = null;
        seed = 0;
        ticket = 0;
        bytes = null;
        length = 0;
    }

    /** {@return the file, naming the item in a failed sample's log line (allocates: failure path only)} */
    @Override
    public String toString() {
        return file == null ? "(no file)" : file.path().toString();
    }
}
