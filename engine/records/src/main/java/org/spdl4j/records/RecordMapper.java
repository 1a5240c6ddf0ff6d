package org.spdl4j.records;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Reads a record from one ring and writes its result straight into its slot of the next ring (which may hold records
 * of another size); called concurrently by the stage's workers, each on a different record.
 */
@FunctionalInterface
public interface RecordMapper {
    /**
     * Maps a record (both buffers are flyweights over ring slots; do not keep them).
     *
     * @param in  the input record, read-only by contract
     * @param out the output slot's record bytes, holding stale data
     * @return {@code true} to keep the output, {@code false} to drop it
     */
    boolean apply(DirectBuffer in, MutableDirectBuffer out);
}
