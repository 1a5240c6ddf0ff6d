package org.spdl4j.records;

import org.agrona.MutableDirectBuffer;

/**
 * Transforms a record in place; called concurrently by the stage's workers, each on a different record.
 */
@FunctionalInterface
public interface RecordTransform {
    /**
     * Transforms the record in its slot (a flyweight over the slot's bytes; do not keep it).
     *
     * @param record the record, read-write
     * @return {@code true} to keep it, {@code false} to drop it (later stages and the consumer skip it)
     */
    boolean apply(MutableDirectBuffer record);
}
