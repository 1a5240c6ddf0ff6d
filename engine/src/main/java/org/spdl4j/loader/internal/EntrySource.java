package org.spdl4j.loader.internal;

import java.time.Duration;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.loader.LoaderState;
import org.spdl4j.loader.ObjectStore;

/**
 * Where a loader's samples come from, per epoch and rank: the internal side of
 * {@link org.spdl4j.loader.SampleSource}.
 *
 * <p><b>Threading:</b> immutable; {@link #open} is called by the loader's source thread.
 */
public interface EntrySource {
    /** A sample count that is known only once an epoch has been read (streamed sources, tar shards). */
    long UNKNOWN_LENGTH = -1;

    /** {@return how the samples' bytes are read} */
    ReadKind readKind();

    /**
     * {@return samples per epoch for this rank, or {@link #UNKNOWN_LENGTH}}
     *
     * @param rank this rank
     */
    long epochLength(RankInfo rank);

    /**
     * Opens one epoch for one rank at a position.
     *
     * @param epoch   the epoch
     * @param from    the position of the first sample to return (samples before it are passed over)
     * @param rank    this rank
     * @param seed    the shuffle seed
     * @param shuffle whether to shuffle per epoch
     * @param bytes   where a source that reads bytes itself puts them (tar members)
     * @return the cursor
     */
    EntryCursor open(long epoch, long from, RankInfo rank, long seed, boolean shuffle, SampleAllocator bytes);

    /**
     * Opens one epoch for one rank of a run whose world size changed in that epoch: the rank's round-robin share of
     * the slots the carry leaves. Only sources of a known number of samples can.
     *
     * @param epoch   the epoch
     * @param from    the position, in this rank's share, of the first sample to return
     * @param rank    this rank (of the new world)
     * @param seed    the shuffle seed
     * @param shuffle whether to shuffle per epoch
     * @param carry   the slots settled before the change
     * @return the cursor
     * @throws UnsupportedOperationException for a source whose samples are not known before reading them
     */
    default EntryCursor open(long epoch, long from, RankInfo rank, long seed, boolean shuffle,
                             LoaderState.Carry carry) {
        throw new UnsupportedOperationException(describe() + " cannot resume on another number of ranks than the"
            + " run was saved with: only folders, lists and lists of entries can");
    }

    /**
     * {@return samples this rank takes of an epoch whose world size changed: its share of what the carry leaves}
     *
     * @param rank  this rank (of the new world)
     * @param carry the slots settled before the change
     */
    default long epochLength(RankInfo rank, LoaderState.Carry carry) {
        return UNKNOWN_LENGTH;
    }

    /**
     * {@return whether a run of this source saved on N ranks can resume on M (see {@link #open(long, long, RankInfo,
     * long, boolean, LoaderState.Carry)}): sources of a known number of samples, by default}
     */
    default boolean reshardable() {
        return epochLength(RankInfo.SINGLE) != UNKNOWN_LENGTH;
    }

    /**
     * {@return this source with a deadline on the reads its cursors make themselves (tar shards), else itself}
     *
     * @param deadline the longest an open or one read may block
     */
    default EntrySource withReadDeadline(Duration deadline) {
        return this;
    }

    /**
     * {@return a fingerprint of which samples this source names, in which order before shuffling (their count and
     * keys; tar shards: their names), never 0; or 0 when it cannot tell without reading them (streamed samples)}
     * Saved states record it, and a resumed loader over another fingerprint is refused. May take a pass over the
     * samples' keys on the first call; cached.
     */
    default long fingerprint() {
        return 0;
    }

    /** {@return the store whose objects a {@link ReadKind#OBJECTS} source names, else {@code null}} */
    default ObjectStore objectStore() {
        return null;
    }

    /** {@return what the source is, for messages and saved states: "folder /data/train (1281167 samples)"} */
    String describe();
}
