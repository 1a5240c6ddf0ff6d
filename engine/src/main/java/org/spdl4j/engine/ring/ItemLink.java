package org.spdl4j.engine.ring;

import com.lmax.disruptor.MultiProducerSequencer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.Sequencer;
import com.lmax.disruptor.SingleProducerSequencer;
import com.lmax.disruptor.WaitStrategy;
import java.util.function.Consumer;
import org.spdl4j.engine.EngineConfiguration;

/**
 * A link between two stages: a Disruptor {@link Sequencer} over preallocated {@link ItemSlots} (the items and their
 * epochs as arrays, not slot objects), written by the upstream stage's workers and shared out among the downstream
 * stage's workers in runs (see {@link WorkSharingReader}). Disruptor's {@code RingBuffer} is a sequencer plus an
 * array of event objects; here the sequencer stands alone and the slots are the arrays.
 *
 * <p>The sequencer is single-producer when the upstream stage has one publishing thread and multi-producer otherwise.
 * Each downstream worker owns one gating {@link Sequence}; the ring never lets a producer overwrite a slot until every
 * gating sequence has passed it. The downstream workers share one {@link PaddedClaimSequence}.
 *
 * <p><b>Threading:</b> the link is immutable after construction; readers and writers are per thread
 * ({@link WorkSharingReader}, {@link BoundedPublisher}). <b>Allocation:</b> all slots at construction, none after.
 */
public final class ItemLink {
    private final String name;
    private final Sequencer sequencer;
    private final ItemSlots slots;
    private final SequenceBarrier barrier;
    private final PaddedClaimSequence claim = new PaddedClaimSequence();
    private final Sequence[] consumerSequences;
    private final boolean multiProducer;

    /**
     * Creates a link.
     *
     * @param name          the link's name for messages (usually the downstream stage's)
     * @param capacity      slots in the ring, a power of two
     * @param multiProducer whether more than one thread publishes into it
     * @param consumers     how many workers consume from it, at least 1
     * @param waitStrategy  how consumers wait for a sequence to be published (must honour barrier alerts)
     * @throws IllegalArgumentException if capacity is not a power of two or consumers is below 1
     */
    public ItemLink(String name, int capacity, boolean multiProducer, int consumers, WaitStrategy waitStrategy) {
        if (consumers < 1) {
            throw new IllegalArgumentException("link '" + name + "' needs at least one consumer, got " + consumers);
        }
        this.name = name;
        this.multiProducer = multiProducer;
        this.slots = new ItemSlots(capacity); // validates the capacity first
        this.sequencer = multiProducer
                ? new MultiProducerSequencer(capacity, waitStrategy)
                : new SingleProducerSequencer(capacity, waitStrategy);
        this.consumerSequences = new Sequence[consumers];
        for (int i = 0; i < consumers; i++) {
            consumerSequences[i] = new Sequence(-1L);
        }
        sequencer.addGatingSequences(consumerSequences);
        this.barrier = sequencer.newBarrier();
    }

    /** {@return the link's name} */
    public String name() {
        return name;
    }

    /** {@return the ring's capacity in slots} */
    public int capacity() {
        return sequencer.getBufferSize();
    }

    /** {@return how many consumers the link has} */
    public int consumerCount() {
        return consumerSequences.length;
    }

    /**
     * Items published and not yet claimed by a consumer: the ring's cursor minus the highest claimed sequence (the
     * shared claim counter, or the single consumer's sequence). Items in a shared stage's claimed runs are not counted
     * (a single consumer's current run is, until it releases the run); slots the slowest worker still gates are not
     * either. With several producers the cursor counts claimed slots still being written, so this may run up to one
     * per producer ahead. Any thread; a racy but bounded reading.
     *
     * @return the occupancy, 0 to capacity
     */
    public long occupancy() {
        long consumed = consumerSequences.length > 1 ? claim.get() : consumerSequences[0].get();
        long waiting = sequencer.getCursor() - consumed;
        return Math.max(0, Math.min(waiting, sequencer.getBufferSize()));
    }

    /**
     * Wakes every consumer waiting on this link; their waits throw {@link com.lmax.disruptor.AlertException}.
     * Used on close and on failure. Any thread.
     */
    public void alert() {
        barrier.alert();
    }

    /**
     * Creates the reader of consumer {@code index}; call once per consumer, use from that consumer's thread only.
     *
     * @param index the consumer's index, 0 to {@code consumerCount() - 1}
     * @return the reader
     */
    public WorkSharingReader reader(int index) {
        return new WorkSharingReader(sequencer, slots, barrier, claim, consumerSequences[index], consumerSequences.length,
                maxRun(sequencer.getBufferSize()));
    }

    /**
     * Creates a publisher for one producing thread.
     *
     * @param backPressure how the producer waits while the ring is full; one instance per publisher
     * @param running      the pipeline's run flag, polled while waiting
     * @return the publisher, to be used from one thread only
     */
    public BoundedPublisher publisher(org.agrona.concurrent.IdleStrategy backPressure, RunFlag running) {
        return new BoundedPublisher(sequencer, slots, !multiProducer, backPressure, running);
    }

    /**
     * Takes every item still in the ring (published, not taken by a consumer) and gives it to {@code sink}: the
     * close-time sweep, so items the pipeline will never deliver reach their owner. Call only once the link's
     * producers and worker consumers have stopped; a single polling consumer may still race (see
     * {@link ItemSlots#takeAtomically}). Walks every slot: taken slots hold {@code null}, end markers are skipped.
     *
     * @param sink receives each item left
     * @return the number of items handed to {@code sink}
     */
    public int drainUntaken(Consumer<Object> sink) {
        int n = 0;
        for (int i = 0; i < sequencer.getBufferSize(); i++) {
            Object item = slots.takeAtomically(i);
            if (item != null) {
                sink.accept(item);
                n++;
            }
        }
        return n;
    }

    /**
     * {@return the longest run a reader takes per claim: {@link EngineConfiguration#MAX_RUN}, at most a quarter of
     * the ring, so a producer is never kept waiting for a whole ring's worth of slots}
     *
     * @param capacity the ring's capacity
     */
    public static int maxRun(int capacity) {
        return Math.max(1, Math.min(EngineConfiguration.MAX_RUN, capacity / 4));
    }

    /** {@return the ring's sequencer, for a single consumer that polls without a barrier} */
    Sequencer sequencer() {
        return sequencer;
    }

    /** {@return the ring's slots} */
    ItemSlots slots() {
        return slots;
    }

    /** {@return whether several threads publish into the link (its cursor then counts claims, not publications)} */
    boolean isMultiProducer() {
        return multiProducer;
    }

    /** {@return the gating sequence of consumer 0, for a single polling consumer} */
    Sequence firstConsumerSequence() {
        return consumerSequences[0];
    }
}
