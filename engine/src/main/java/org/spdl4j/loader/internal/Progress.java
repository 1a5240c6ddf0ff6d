package org.spdl4j.loader.internal;

import java.util.Map;
import java.util.TreeMap;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.loader.LoaderState;

/**
 * What a loader has settled, per epoch: positions delivered to the consumer (recorded when it receives their batch)
 * or failed (they would fail again): a failed read when it fails (it never takes a slot), a failed decode with its
 * batch (it took a slot: settled earlier, a resumed run would shift every later sample into another batch). {@link #state()} turns it into a {@link LoaderState}.
 *
 * <p><b>Threading:</b> written by the consumer's thread (deliveries, once per batch), failing stage workers
 * (failure path only) and the source thread (an epoch's length, once per epoch); guarded by this object's monitor,
 * taken once per batch, never per sample on the success path. <b>Allocation:</b> the bitmaps of open epochs.
 */
public final class Progress {
    private final long seed;
    private final RankInfo rank;
    /** Samples per epoch when the source knows it, else {@link EntrySource#UNKNOWN_LENGTH}. */
    private final long knownLength;
    /** Every epoch before it is done. */
    private long epoch;
    private final TreeMap<Long, PositionSet> open = new TreeMap<>();
    /** Lengths of epochs the source has read to their end (sources of unknown length). */
    private final TreeMap<Long, Long> lengths = new TreeMap<>();
    /** Slots settled before the world size changed, of open epochs; dropped as each epoch is done. */
    private final TreeMap<Long, LoaderState.Carry> carried;
    /** This rank's share of each carried epoch. */
    private final TreeMap<Long, Long> carriedLengths = new TreeMap<>();

    /**
     * Starts from a state.
     *
     * @param from        the state resumed from, or a start state
     * @param knownLength samples per epoch for this rank, or {@link EntrySource#UNKNOWN_LENGTH}
     */
    public Progress(LoaderState from, long knownLength) {
        this(from, knownLength, Map.of());
    }

    /**
     * Starts from a state whose world size changed in an open epoch.
     *
     * @param from           the state resumed from
     * @param knownLength    samples per epoch for this rank, or {@link EntrySource#UNKNOWN_LENGTH}
     * @param carriedLengths this rank's samples in each epoch {@code from} carries slots of
     */
    public Progress(LoaderState from, long knownLength, Map<Long, Long> carriedLengths) {
        this.carried = new TreeMap<>(from.carried());
        this.carriedLengths.putAll(carriedLengths);
        this.seed = from.seed();
        this.rank = new RankInfo(from.rank(), from.worldSize());
        this.knownLength = knownLength;
        this.epoch = from.epoch();
        for (Map.Entry<Long, LoaderState.Mark> e : from.marks().entrySet()) {
            PositionSet set = new PositionSet(e.getValue().watermark());
            for (long p : e.getValue().above()) {
                set.add(p);
            }
            open.put(e.getKey(), set);
        }
        advance();
    }

    /**
     * Records one settled sample.
     *
     * @param e        its epoch
     * @param position its position
     */
    public synchronized void settle(long e, long position) {
        if (e < epoch) {
            return;
        }
        open.computeIfAbsent(e, k -> new PositionSet(0)).add(position);
        advance();
    }

    /**
     * Records the samples of a batch the consumer received: those it holds and those that failed to decode in it.
     *
     * @param record the batch's record
     */
    public synchronized void settle(BatchRecord record) {
        settleAll(record.epochs, record.positions, record.size());
        settleAll(record.failedEpochs, record.failedPositions, record.failedEpochs.length);
        advance();
    }

    private void settleAll(long[] epochs, long[] positions, int n) {
        for (int i = 0; i < n; i++) {
            if (epochs[i] >= epoch) {
                open.computeIfAbsent(epochs[i], k -> new PositionSet(0)).add(positions[i]);
            }
        }
    }

    /**
     * Records an epoch's length, learned when the source reached its end.
     *
     * @param e      the epoch
     * @param length its samples for this rank
     */
    public synchronized void epochEnded(long e, long length) {
        lengths.put(e, length);
        advance();
    }

    /** {@return the settled samples as a state: exact for the batches the consumer has received} */
    public synchronized LoaderState state() {
        Map<Long, LoaderState.Mark> marks = new TreeMap<>();
        for (Map.Entry<Long, PositionSet> e : open.entrySet()) {
            marks.put(e.getKey(), new LoaderState.Mark(e.getValue().watermark(), e.getValue().above()));
        }
        return new LoaderState(seed, rank.rank(), rank.worldSize(), epoch, marks, carried.tailMap(epoch));
    }

    /** {@return the first epoch not done} */
    public synchronized long epoch() {
        return epoch;
    }

    /** Moves past epochs whose every sample is settled. */
    private void advance() {
        for (;;) {
            // A known length of 0 (a rank with no sample) would pass every epoch at once, forever: such an epoch is
            // done once the source has read it, as one of unknown length.
            // The length the source read is the epoch's, when it has read it: a source of known length can still end
            // an epoch early (a mixture whose part has no sample on this rank).
            Long share = carriedLengths.get(epoch);
            Long read = lengths.get(epoch);
            long length = read != null ? read : share != null && share > 0 ? share
                : share == null && knownLength > 0 ? knownLength : -1;
            if (length < 0) {
                return;
            }
            PositionSet set = open.get(epoch);
            long watermark = set == null ? 0 : set.watermark();
            if (watermark < length) {
                return;
            }
            open.remove(epoch);
            lengths.remove(epoch);
            carried.remove(epoch);
            carriedLengths.remove(epoch);
            epoch++;
        }
    }
}
