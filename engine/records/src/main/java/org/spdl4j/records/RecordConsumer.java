package org.spdl4j.records;

import org.agrona.DirectBuffer;

/** Receives every record that reached the end of a record pipeline, in source order, on the consumer thread. */
@FunctionalInterface
public interface RecordConsumer {
    /**
     * Reads a record (a flyweight over the slot's bytes; copy what must outlive the call).
     *
     * @param record the record, read-only by contract
     */
    void accept(DirectBuffer record);
}
