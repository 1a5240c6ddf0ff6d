package org.spdl4j.offheap.batch;

import java.nio.file.Path;

/**
 * One encoded sample as a {@link SlotDecoder} sees it: its bytes in off-heap memory (or, for a decoder that
 * {@link SlotDecoder#readsFiles() reads files itself}, the local file they are in), its key and the seed of its
 * random transform.
 *
 * <p><b>Lifetime:</b> a view valid only during the {@link SlotDecoder#decode} call it is passed to: the loader reuses
 * the object and gives the bytes back to their pool after the call. Do not keep it. <b>Threading:</b> read by the one
 * decoding thread.
 */
public interface EncodedSample {
    /** {@return the address of the first encoded byte; 0 when the bytes were not read (see {@link #path()})} */
    long address();

    /** {@return the number of encoded bytes at {@link #address()}; 0 when they were not read} */
    int length();

    /** {@return the sample's key: a path, {@code shard@member} or a URL; names the input in errors} */
    String key();

    /**
     * {@return the seed of this sample's random transform (crop, flip) in this epoch: a function of the run's seed,
     * the epoch and the key, so a resumed or repeated run draws the same; 0 when the loader draws none}
     */
    long seed();

    /**
     * {@return the local file the sample is, or {@code null} when it did not come from one (a tar member, a URL); a
     * decoder that {@link SlotDecoder#readsFiles() reads files} opens it when {@link #length()} is 0}
     */
    Path path();

    /**
     * {@return the {@link System#nanoTime()} by which this decode should be done (a loader's decode timeout, counted
     * from when the decode began), or {@link Long#MAX_VALUE} for none; a decoder that waits (for memory) gives up by
     * then rather than start work that would be discarded; default none}
     */
    default long deadlineNanos() {
        return Long.MAX_VALUE;
    }
}
