package org.spdl4j.records;

import com.lmax.disruptor.MultiProducerSequencer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.Sequencer;
import com.lmax.disruptor.SingleProducerSequencer;
import com.lmax.disruptor.WaitStrategy;
import java.nio.ByteBuffer;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A ring whose slots are fixed-size records in ONE preallocated, aligned off-heap block (layout:
 * {@link RecordDescriptor}), sequenced by a Disruptor {@link Sequencer}. Threads never copy records in or out: each
 * holds an {@link UnsafeBuffer} flyweight and {@link #wrapRecord wraps} it over the slot it owns for the moment.
 *
 * <p><b>Ownership:</b> the ring owns the block; {@link #free()} releases it once, after every thread using it has
 * stopped (the pipeline joins its threads first and leaks the block, with an error, if one does not stop, rather than
 * free memory a thread may still write). <b>Threading:</b> the sequencer is single-producer when one thread
 * publishes, multi-producer otherwise. <b>Allocation:</b> the block and the sequencer at construction; none after.
 */
public final class RecordRing {
    private final Sequencer sequencer;
    private final ByteBuffer block;
    private final UnsafeBuffer blockView;
    private final int recordLength;
    private final int slotSize;
    private final int mask;
    private boolean freed;

    /**
     * Allocates the block and the sequencer.
     *
     * @param capacity      slots, a power of two
     * @param recordLength  bytes per record, 1 to {@link RecordDescriptor#MAX_RECORD_LENGTH}
     * @param multiProducer whether several threads publish
     * @param waitStrategy  how the first stage waits for the producer
     * @throws IllegalArgumentException if a size is out of range or the block would exceed 2 GiB
     */
    public RecordRing(int capacity, int recordLength, boolean multiProducer, WaitStrategy waitStrategy) {
        this(capacity, recordLength, RecordDescriptor.ALIGNMENT, multiProducer, waitStrategy);
    }

    /**
     * Allocates the block and the sequencer, with slots rounded up to {@code slotAlignment} bytes (see
     * {@link RecordDescriptor}: a cache line keeps neighbours apart, less packs tiny records).
     *
     * @param capacity      slots, a power of two
     * @param recordLength  bytes per record, 1 to {@link RecordDescriptor#MAX_RECORD_LENGTH}
     * @param slotAlignment a power of two, {@link RecordDescriptor#MIN_SLOT_ALIGNMENT} to
     *                      {@link RecordDescriptor#MAX_SLOT_ALIGNMENT}
     * @param multiProducer whether several threads publish
     * @param waitStrategy  how the first stage waits for the producer
     * @throws IllegalArgumentException if a size is out of range or the block would exceed 2 GiB
     */
    public RecordRing(int capacity, int recordLength, int slotAlignment, boolean multiProducer,
                      WaitStrategy waitStrategy) {
        if (recordLength < 1 || recordLength > RecordDescriptor.MAX_RECORD_LENGTH) {
            throw new IllegalArgumentException("record length must be in [1, "
                    + RecordDescriptor.MAX_RECORD_LENGTH + "], got " + recordLength);
        }
        this.slotSize = RecordDescriptor.slotSize(recordLength, slotAlignment);
        long blockBytes = (long) capacity * slotSize;
        int blockAlignment = Math.max(RecordDescriptor.ALIGNMENT, slotAlignment); // every slot starts aligned
        if (capacity < 1 || Integer.bitCount(capacity) != 1 || blockBytes > Integer.MAX_VALUE - blockAlignment) {
            throw new IllegalArgumentException("record ring capacity must be a power of two and capacity x slot size ("
                    + capacity + " x " + slotSize + ") at most 2 GiB");
        }
        this.recordLength = recordLength;
        this.mask = capacity - 1;
        this.sequencer = multiProducer ? new MultiProducerSequencer(capacity, waitStrategy)
                : new SingleProducerSequencer(capacity, waitStrategy);
        // One allocation, over-sized by the block alignment so the view can start on a cache line (or on the slot
        // alignment, when larger). The original buffer is kept: it is what must be freed (an aligned slice cannot be).
        this.block = ByteBuffer.allocateDirect((int) blockBytes + blockAlignment);
        long address = BufferUtil.address(block);
        long aligned = (address + blockAlignment - 1) & -blockAlignment;
        this.blockView = new UnsafeBuffer(aligned, (int) blockBytes);
    }

    /** {@return the sequencer: producers claim and publish through it, stages build barriers from it} */
    public Sequencer sequencer() {
        return sequencer;
    }

    /** {@return bytes per record} */
    public int recordLength() {
        return recordLength;
    }

    /** {@return slots in the ring} */
    public int capacity() {
        return mask + 1;
    }

    /**
     * Adds the sequences that gate the producer (the last stage's workers).
     *
     * @param gating the sequences
     */
    public void gateProducerOn(Sequence... gating) {
        sequencer.addGatingSequences(gating);
    }

    /**
     * Creates a barrier that waits for the producer ({@code after} empty) or for every sequence in {@code after}.
     *
     * @param after the sequences of the stage before, or none
     * @return the barrier
     */
    public SequenceBarrier barrier(Sequence... after) {
        return sequencer.newBarrier(after);
    }

    /**
     * Points a flyweight at the record bytes of a sequence's slot.
     *
     * @param flyweight the calling thread's flyweight
     * @param sequence  a sequence the caller owns (claimed for writing, or available for reading)
     */
    public void wrapRecord(UnsafeBuffer flyweight, long sequence) {
        flyweight.wrap(blockView.addressOffset() + slotOffset(sequence) + RecordDescriptor.HEADER_LENGTH,
                recordLength);
    }

    /**
     * {@return the kind of a sequence's slot}
     *
     * @param sequence the sequence
     */
    public int kind(long sequence) {
        return blockView.getInt((int) slotOffset(sequence) + RecordDescriptor.KIND_OFFSET);
    }

    /**
     * Sets the kind of a sequence's slot (before publishing it, or by the stage that owns it).
     *
     * @param sequence the sequence
     * @param kind     one of {@link RecordDescriptor}'s kinds
     */
    public void kind(long sequence, int kind) {
        blockView.putInt((int) slotOffset(sequence) + RecordDescriptor.KIND_OFFSET, kind);
    }

    /**
     * {@return the end ordinal of an end marker's slot}
     *
     * @param sequence the sequence
     */
    public int endOrdinal(long sequence) {
        return blockView.getInt((int) slotOffset(sequence) + RecordDescriptor.END_ORDINAL_OFFSET);
    }

    /**
     * Writes an end marker into a claimed slot (before publishing it).
     *
     * @param sequence the claimed sequence
     * @param ordinal  which end marker, from 0
     */
    public void writeEnd(long sequence, int ordinal) {
        blockView.putInt((int) slotOffset(sequence) + RecordDescriptor.END_ORDINAL_OFFSET, ordinal);
        blockView.putInt((int) slotOffset(sequence) + RecordDescriptor.KIND_OFFSET, RecordDescriptor.KIND_END);
    }

    private long slotOffset(long sequence) {
        return RecordDescriptor.slotOffset(sequence, mask, slotSize);
    }

    /** Frees the block; idempotent. Only after every thread using the ring has stopped. */
    public void free() {
        if (!freed) {
            freed = true;
            blockView.wrap(0, 0); // a stray access after free now fails the bounds check instead of touching memory
            BufferUtil.free(block); // runs the direct buffer's cleaner now rather than at some later GC
        }
    }

    /** {@return whether the block has been freed} */
    public boolean isFreed() {
        return freed;
    }
}
