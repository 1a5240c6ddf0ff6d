package org.spdl4j.records;

import org.agrona.MutableDirectBuffer;

/** Writes records straight into ring slots; called on the record pipeline's source thread only. */
@FunctionalInterface
public interface RecordSource {
    /**
     * Writes the next record into {@code record} (a flyweight over the slot's bytes; do not keep it).
     *
     * @param record the slot's record bytes, {@link RecordRing#recordLength()} long, holding stale data
     * @return {@code true} if a record was written, {@code false} at end of stream
     * @throws Exception if the source failed; the pipeline ends with this cause
     */
    boolean next(MutableDirectBuffer record) throws Exception;
}
