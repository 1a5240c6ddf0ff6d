package org.spdl4j.records;

/**
 * Layout of a record ring's off-heap block: {@code capacity} slots of {@link #slotSize(int, int)} bytes each, one
 * after the other, the block aligned to at least {@link #ALIGNMENT}. Slot {@code i} holds sequence {@code s} when
 * {@code i == (s & (capacity - 1))}.
 *
 * <pre>
 *  block:  | slot 0 | slot 1 | ... | slot capacity-1 |      each slot a multiple of the slot alignment
 *
 *  slot:   0               4               8                          8 + recordLength         slotSize
 *          +---------------+---------------+--------------------------+-------------------------+
 *          | kind (int)    | end ordinal   | record bytes             | padding to the alignment|
 *          +---------------+---------------+--------------------------+-------------------------+
 * </pre>
 *
 * <p><b>Slot alignment</b> (a power of two, {@link #MIN_SLOT_ALIGNMENT} to {@link #MAX_SLOT_ALIGNMENT}; the block
 * starts on a multiple of it too, and of a cache line): the default, a cache line ({@link #ALIGNMENT}), gives every
 * slot lines of its own, so two threads working on neighbouring records never write the same line (no false sharing:
 * what a latency-critical pipeline wants). A smaller alignment packs tiny records (an 8-byte record in 16 bytes: four
 * to a line), so each hand-off between cores moves a line for every four records instead of one: what a throughput
 * pipeline of tiny records whose stages have <b>one worker each</b> wants. Neighbours then share lines only where two
 * stages meet (a stage right behind the one before it). Workers of one stage sharing its records take one record at a
 * time, so packed, they write each other's lines all the time: keep the default for such stages.
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
    /** A cache line: the default slot alignment, and the least block alignment. */
    public static final int ALIGNMENT = 64;
    /** Smallest slot alignment: the header's two ints and a record's longs stay naturally aligned. */
    public static final int MIN_SLOT_ALIGNMENT = 8;
    /** Largest slot alignment (a page). */
    public static final int MAX_SLOT_ALIGNMENT = 4096;
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
     * {@return the bytes one slot takes at the default alignment: header plus record, rounded up to a cache line}
     *
     * @param recordLength bytes of one record
     */
    public static int slotSize(int recordLength) {
        return slotSize(recordLength, ALIGNMENT);
    }

    /**
     * {@return the bytes one slot takes: header plus record, rounded up to the slot alignment}
     *
     * @param recordLength  bytes of one record
     * @param slotAlignment a power of two, {@link #MIN_SLOT_ALIGNMENT} to {@link #MAX_SLOT_ALIGNMENT}
     * @throws IllegalArgumentException if the alignment is not one of those
     */
    public static int slotSize(int recordLength, int slotAlignment) {
        if (!isValidSlotAlignment(slotAlignment)) {
            throw new IllegalArgumentException("slot alignment must be a power of two in [" + MIN_SLOT_ALIGNMENT
                    + ", " + MAX_SLOT_ALIGNMENT + "], got " + slotAlignment);
        }
        return (HEADER_LENGTH + recordLength + slotAlignment - 1) & -slotAlignment;
    }

    /**
     * {@return whether a slot alignment is accepted}
     *
     * @param slotAlignment the alignment in bytes
     */
    public static boolean isValidSlotAlignment(int slotAlignment) {
        return slotAlignment >= MIN_SLOT_ALIGNMENT && slotAlignment <= MAX_SLOT_ALIGNMENT
                && Integer.bitCount(slotAlignment) == 1;
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
