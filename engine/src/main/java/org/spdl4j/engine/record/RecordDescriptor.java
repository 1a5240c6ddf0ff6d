package org.spdl4j.engine.record;

/**
 * Layout of a record ring's off-heap block: {@code capacity} slots of {@link #slotSize(int)} bytes each, one after
 * the other, the block aligned to {@link #ALIGNMENT}. Slot {@code i} holds sequence {@code s} when
 * {@code i == (s & (capacity - 1))}.
 *
 * <pre>
 *  block:  | slot 0 | slot 1 | ... | slot capacity-1 |      each slot a multiple of 64 bytes (no false sharing)
 *
 *  slot:   0               4               8                          8 + recordLength         slotSize
 *          +---------------+---------------+--------------------------+-------------------------+
 *          | kind (int)    | end ordinal   | record bytes             | padding to 64           |
 *          +---------------+---------------+--------------------------+-------------------------+
 * </pre>
 *
 * <ul>
 *   <li>{@code kind}: {@link #KIND_RECORD} (a record), {@link #KIND_DROPPED} (a stage dropped it: later stages and
 *       the consumer skip it), {@link #KIND_END} (end-of-stream marker).</li>
 *   <li>{@code end ordinal}: for end markers, 0 to {@code ends - 1}: which of the source's end markers this is.</li>
 *   <li>record bytes: written by the source, transformed in place by each stage, read by the consumer; the byte
 *       order inside is the application's (Agrona's buffers default to little-endian).</li>
 * </ul>
 * The header is written and read with plain accesses: the ring's sequences order them (a release store of the
 * producer's cursor or a stage's sequence after the write; an acquire load before the read).
 */
public final class RecordDescriptor {
    /** Offset of the slot kind (int). */
    public static final int KIND_OFFSET = 0;
    /** Offset of the end-marker ordinal (int). */
    public static final int END_ORDINAL_OFFSET = 4;
    /** Bytes of header before the record. */
    public static final int HEADER_LENGTH = 8;
    /** Slot and block alignment: a cache line. */
    public static final int ALIGNMENT = 64;
    /** Largest record accepted (1 MiB): record rings are for small records. */
    public static final int MAX_RECORD_LENGTH = 1 << 20;

    /** The slot holds a record. */
    public static final int KIND_RECORD = 0;
    /** A stage dropped the record; later stages and the consumer skip it. */
    public static final int KIND_DROPPED = 1;
    /** End-of-stream marker. */
    public static final int KIND_END = 2;

    private RecordDescriptor() {
    }

    /**
     * {@return the bytes one slot takes: header plus record, rounded up to the alignment}
     *
     * @param recordLength bytes of one record
     */
    public static int slotSize(int recordLength) {
        return (HEADER_LENGTH + recordLength + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /**
     * {@return the offset of a sequence's slot in the block}
     *
     * @param sequence the sequence
     * @param mask     capacity - 1
     * @param slotSize bytes per slot
     */
    public static long slotOffset(long sequence, int mask, int slotSize) {
        return (sequence & mask) * (long) slotSize;
    }
}
