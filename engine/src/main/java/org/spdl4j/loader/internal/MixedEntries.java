package org.spdl4j.loader.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.spdl4j.engine.source.FeistelPermutation;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.loader.ObjectStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A weighted mixture of sources: each rank interleaves its own share of every part by a {@link MixSchedule}, so every
 * stretch of an epoch holds the parts in proportion to their weights, on every rank.
 *
 * <p><b>Epoch length.</b> By default an epoch ends where the schedule reaches a part that has no sample left (no
 * sample repeats within an epoch; the larger parts are sampled, not exhausted). With a fixed number of samples per
 * epoch, a part that runs out starts over within the epoch, on a new order (its own seed for each pass) and with new
 * transform seeds ({@link LoaderItem#pass}): a small part is up-sampled.
 *
 * <p><b>Positions and resume.</b> A position is a place in this rank's mixed sequence. Opening at a position computes
 * every part's count there ({@link MixSchedule#countsAt}) and opens each part at its own position (a part of known
 * length at the right pass directly; a streamed part passes over its samples): exact, whatever the parts.
 *
 * <p><b>Read kinds.</b> The parts share one read stage: all local files, all URLs, all objects of one store, or tar
 * shards (read on the source thread) mixed with local files, whose read stage passes their items through.
 *
 * <p><b>Threading:</b> immutable; cursors on the source thread. <b>Allocation:</b> one cursor per epoch and per pass
 * of a part; nothing per sample but what the parts allocate.
 */
public final class MixedEntries implements EntrySource {
    private static final Logger LOG = LoggerFactory.getLogger(MixedEntries.class);
    /** Separates the parts' seeds from each other and from other uses of the run's seed. */
    private static final long PART_SEED = 0x6D69787475726521L;

    private final List<EntrySource> parts;
    private final MixSchedule schedule;
    private final long samplesPerEpoch;
    private final ReadKind kind;
    private final String description;

    /**
     * Creates the mixture.
     *
     * @param parts           the sources, at least one
     * @param weights         one per part, finite and positive
     * @param samplesPerEpoch samples per epoch over all ranks (parts start over as they run out), or
     *                        {@link #UNKNOWN_LENGTH} to end each epoch where the first part runs out
     * @throws IllegalArgumentException when the counts differ, a weight is not positive, or the parts cannot share a
     *                                  read stage
     */
    public MixedEntries(List<EntrySource> parts, double[] weights, long samplesPerEpoch) {
        this.parts = List.copyOf(parts);
        if (this.parts.size() != weights.length) {
            throw new IllegalArgumentException(this.parts.size() + " parts but " + weights.length + " weights");
        }
        if (samplesPerEpoch != UNKNOWN_LENGTH && (samplesPerEpoch < 1 || samplesPerEpoch >= MixSchedule.MAX_COUNT)) {
            throw new IllegalArgumentException("samples per epoch must be in [1, 2^40), got " + samplesPerEpoch);
        }
        this.schedule = new MixSchedule(weights);
        this.samplesPerEpoch = samplesPerEpoch;
        this.kind = readKindOf(this.parts);
        StringBuilder d = new StringBuilder("mixture of ");
        for (int j = 0; j < this.parts.size(); j++) {
            d.append(j == 0 ? "" : ", ").append(String.format(java.util.Locale.ROOT, "%.3g%% ",
                100 * schedule.fraction(j))).append(this.parts.get(j).describe());
        }
        this.description = d.append(samplesPerEpoch == UNKNOWN_LENGTH ? "; epochs end where a part runs out"
            : "; " + samplesPerEpoch + " samples per epoch").toString();
    }

    private MixedEntries(List<EntrySource> parts, MixSchedule schedule, long samplesPerEpoch, ReadKind kind,
                         String description) {
        this.parts = parts;
        this.schedule = schedule;
        this.samplesPerEpoch = samplesPerEpoch;
        this.kind = kind;
        this.description = description;
    }

    /** One read stage for all: one kind, or tar shards (inline) with files; objects of one store. */
    private static ReadKind readKindOf(List<EntrySource> parts) {
        ReadKind kind = null;
        ObjectStore store = null;
        for (EntrySource p : parts) {
            Objects.requireNonNull(p, "part");
            ReadKind k = p.readKind();
            if (k == ReadKind.OBJECTS) {
                if (store != null && store != p.objectStore()) {
                    throw new IllegalArgumentException("a mixture reads objects of one store; " + p.describe()
                        + " is in another (" + p.objectStore().describe() + ", not " + store.describe() + ")");
                }
                store = p.objectStore();
            }
            if (kind == null || kind == k) {
                kind = k;
            } else if (kind == ReadKind.INLINE && k == ReadKind.FILES || kind == ReadKind.FILES
                && k == ReadKind.INLINE) {
                kind = ReadKind.FILES; // the file read stage passes tar members through
            } else {
                throw new IllegalArgumentException("a mixture's parts share one read stage: " + p.describe()
                    + " is read as " + k + ", an earlier part as " + kind + " (mix local files with local files or tar"
                    + " shards, URLs with URLs, objects with objects of the same store; or use a loader each)");
            }
        }
        return kind;
    }

    @Override
    public ReadKind readKind() {
        return kind;
    }

    @Override
    public ObjectStore objectStore() {
        return kind == ReadKind.OBJECTS ? parts.get(0).objectStore() : null;
    }

    /** {@return this mixture with tar-shard parts given a read deadline (see TarShardEntries#withReadDeadline)} */
    @Override
    public EntrySource withReadDeadline(Duration deadline) {
        List<EntrySource> guarded = new ArrayList<>(parts.size());
        for (EntrySource p : parts) {
            guarded.add(p.withReadDeadline(deadline));
        }
        return new MixedEntries(List.copyOf(guarded), schedule, samplesPerEpoch, kind, description);
    }

    @Override
    public boolean reshardable() {
        return false;
    }

    @Override
    public long epochLength(RankInfo rank) {
        if (samplesPerEpoch != UNKNOWN_LENGTH) {
            return samplesPerEpoch / rank.worldSize();
        }
        long[] lengths = new long[parts.size()];
        long total = 0;
        for (int j = 0; j < lengths.length; j++) {
            lengths[j] = parts.get(j).epochLength(rank);
            if (lengths[j] < 0) {
                return UNKNOWN_LENGTH; // known once a part runs out
            }
            total += lengths[j];
        }
        // The largest position at which no part has passed its length: counts only grow with the position.
        long lo = 0;
        long hi = Math.min(total, MixSchedule.MAX_COUNT - 1);
        long[] counts = new long[lengths.length];
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            schedule.countsAt(mid, counts);
            if (within(counts, lengths)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private static boolean within(long[] counts, long[] lengths) {
        for (int j = 0; j < counts.length; j++) {
            if (counts[j] > lengths[j]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public EntryCursor open(long epoch, long from, RankInfo rank, long seed, boolean shuffle, SampleAllocator bytes) {
        long length = epochLength(rank);
        long start = length == UNKNOWN_LENGTH ? from : Math.min(from, length);
        long[] counts = new long[parts.size()];
        schedule.countsAt(start, counts);
        Part[] open = new Part[parts.size()];
        try {
            for (int j = 0; j < open.length; j++) {
                open[j] = new Part(j, epoch, rank, seed, shuffle, bytes);
                open[j].seek(counts[j]);
            }
        } catch (RuntimeException | Error e) {
            closeAll(open, e);
            throw e;
        }
        return new Cursor(open, counts, start, length);
    }

    /** Closes what was opened; a failure to close is added to {@code cause}. */
    private static void closeAll(Part[] open, Throwable cause) {
        for (Part p : open) {
            if (p != null) {
                try {
                    p.close();
                } catch (RuntimeException e) {
                    if (cause != null) {
                        cause.addSuppressed(e);
                    }
                }
            }
        }
    }

    /** {@return the parts' fingerprints with the weights and epoch length; 0 when a part has none} */
    @Override
    public long fingerprint() {
        SourceFingerprint fp = new SourceFingerprint();
        for (int j = 0; j < parts.size(); j++) {
            long part = parts.get(j).fingerprint();
            if (part == 0) {
                return 0;
            }
            fp.add(part).add(Double.doubleToLongBits(schedule.fraction(j)));
        }
        return fp.add(samplesPerEpoch).value();
    }

    @Override
    public String describe() {
        return description;
    }

    /** This rank's mixed sequence of one epoch. */
    private final class Cursor implements EntryCursor {
        private final Part[] open;
        private final long[] counts;
        private final long length;
        private long position;

        Cursor(Part[] open, long[] counts, long position, long length) {
            this.open = open;
            this.counts = counts;
            this.position = position;
            this.length = length;
        }

        @Override
        public boolean next(LoaderItem item) {
            return step(item);
        }

        @Override
        public boolean skip() {
            return step(null);
        }

        /** The next position: its part's next sample into {@code item}, or passed over when {@code item} is null. */
        private boolean step(LoaderItem item) {
            if (length != UNKNOWN_LENGTH && position >= length) {
                return false;
            }
            int j = schedule.next(counts);
            if (!open[j].step(item)) {
                return false;
            }
            counts[j]++;
            position++;
            return true;
        }

        @Override
        public void close() {
            closeAll(open, null);
        }
    }

    /** One part's samples of one epoch on this rank, pass after pass when epochs have a fixed length. */
    private final class Part {
        private final int index;
        private final long epoch;
        private final RankInfo rank;
        private final long seed;
        private final boolean shuffle;
        private final SampleAllocator bytes;
        private final boolean cycles = samplesPerEpoch != UNKNOWN_LENGTH;
        private EntryCursor cursor;
        private long pass;
        /** Samples given in this pass (a pass that ends with none given: the part has nothing on this rank). */
        private long inPass;

        Part(int index, long epoch, RankInfo rank, long seed, boolean shuffle, SampleAllocator bytes) {
            this.index = index;
            this.epoch = epoch;
            this.rank = rank;
            this.seed = seed;
            this.shuffle = shuffle;
            this.bytes = bytes;
        }

        /** Places the part after {@code count} of its samples: passes of known length directly, else sample by sample. */
        void seek(long count) {
            long length = cycles ? parts.get(index).epochLength(rank) : UNKNOWN_LENGTH;
            if (length > 0) {
                pass = count / length;
                inPass = count % length;
                cursor = parts.get(index).open(epoch, inPass, rank, passSeed(), shuffle, bytes);
                return;
            }
            pass = 0;
            inPass = 0;
            cursor = parts.get(index).open(epoch, cycles ? 0 : count, rank, passSeed(), shuffle, bytes);
            if (!cycles) {
                inPass = count;
                return;
            }
            for (long n = 0; n < count; n++) {
                if (!step(null)) {
                    return; // an empty part: the epoch ends where it is drawn
                }
            }
        }

        private long passSeed() {
            return FeistelPermutation.mix64(seed ^ FeistelPermutation.mix64(PART_SEED + index * 0x9E3779B97F4A7C15L
                + pass));
        }

        /** The part's next sample into {@code item} (or passed over when null), starting a new pass if need be. */
        boolean step(LoaderItem item) {
            for (;;) {
                if (item == null ? cursor.skip() : cursor.next(item)) {
                    if (item != null) {
                        // Folded into what an inner mixture set (0 otherwise): a redraw at either level is another
                        // pass, so another transform seed.
                        item.pass = item.pass * 1_000_003 + pass;
                    }
                    inPass++;
                    return true;
                }
                if (!startOver()) {
                    return false;
                }
            }
        }

        /** At the end of a pass: the next pass, when epochs have a fixed length and the last pass gave samples. */
        private boolean startOver() {
            if (!cycles) {
                return false;
            }
            if (inPass == 0) {
                LOG.warn("{}: part {} ({}) has no sample on rank {} of {}; the epoch ends here", description, index,
                    parts.get(index).describe(), rank.rank(), rank.worldSize());
                return false;
            }
            cursor.close();
            cursor = null;
            pass++;
            inPass = 0;
            cursor = parts.get(index).open(epoch, 0, rank, passSeed(), shuffle, bytes);
            return true;
        }

        void close() {
            if (cursor != null) {
                cursor.close();
                cursor = null;
            }
        }
    }
}
