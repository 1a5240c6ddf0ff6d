package org.spdl4j.loader.internal;

import java.util.List;
import java.util.PrimitiveIterator;
import org.spdl4j.engine.source.DistributedSampler;
import org.spdl4j.engine.source.FeistelPermutation;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.RemainderPolicy;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.loader.LoaderState;
import org.spdl4j.loader.ObjectStore;
import org.spdl4j.loader.SampleEntry;

/**
 * A list of samples read in the order a {@link DistributedSampler} gives: this rank's share, shuffled per epoch by
 * seed, equal counts on every rank (the remainder dropped). Opening at a position costs O(1).
 *
 * <p><b>Threading:</b> immutable. <b>Allocation:</b> a cursor per epoch, nothing per sample.
 */
public final class IndexedEntries implements EntrySource {
    private final List<SampleEntry> entries;
    private final ReadKind kind;
    private final String description;
    private final ObjectStore store;
    /** {@link #fingerprint()}, once computed; 0 before (races compute the same value). */
    private volatile long fingerprint;

    /**
     * Creates the source.
     *
     * @param entries     the samples (copied)
     * @param description what they are, for messages
     */
    public IndexedEntries(List<SampleEntry> entries, String description) {
        this.entries = List.copyOf(entries);
        this.kind = kindOf(this.entries, description);
        this.description = description + " (" + this.entries.size() + " samples)";
        this.store = null;
    }

    /**
     * Creates a source of whole objects read from a store.
     *
     * @param entries     the samples, each naming its object by URI (copied)
     * @param store       where they are read from
     * @param description what they are, for messages
     */
    public IndexedEntries(List<SampleEntry> entries, ObjectStore store, String description) {
        this.entries = List.copyOf(entries);
        for (SampleEntry e : this.entries) {
            if (e.uri() == null) {
                throw new IllegalArgumentException(description + ": sample '" + e.key() + "' names no object (give "
                    + "each entry the URI of its object in " + store.describe() + ")");
            }
        }
        this.kind = ReadKind.OBJECTS;
        this.description = description + " (" + this.entries.size() + " samples)";
        this.store = store;
    }

    /** All files, or all URLs: one read stage reads them. */
    static ReadKind kindOf(List<SampleEntry> entries, String description) {
        boolean files = false;
        boolean urls = false;
        for (SampleEntry e : entries) {
            files |= e.path() != null;
            urls |= e.uri() != null;
        }
        if (files && urls) {
            throw new IllegalArgumentException(description + ": mixes local files and URLs; give one loader each");
        }
        return urls ? ReadKind.HTTP : ReadKind.FILES;
    }

    @Override
    public ReadKind readKind() {
        return kind;
    }

    @Override
    public ObjectStore objectStore() {
        return store;
    }

    @Override
    public long epochLength(RankInfo rank) {
        return sampler(rank, 0, false).samplesPerRank();
    }

    private DistributedSampler sampler(RankInfo rank, long seed, boolean shuffle) {
        return new DistributedSampler(entries.size(), rank, seed, shuffle, RemainderPolicy.DROP);
    }

    @Override
    public EntryCursor open(long epoch, long from, RankInfo rank, long seed, boolean shuffle, SampleAllocator bytes) {
        DistributedSampler sampler = sampler(rank, seed, shuffle);
        PrimitiveIterator.OfLong indices = sampler.indices(epoch, Math.min(from, sampler.samplesPerRank()));
        return new EntryCursor() {
            @Override
            public boolean next(LoaderItem item) {
                if (!indices.hasNext()) {
                    return false;
                }
                SampleEntry e = entries.get((int) indices.nextLong());
                item.describe(e);
                return true;
            }

            @Override
            public boolean skip() {
                if (!indices.hasNext()) {
                    return false;
                }
                indices.nextLong();
                return true;
            }

            @Override
            public void close() {
                // nothing open
            }
        };
    }

    @Override
    public long epochLength(RankInfo rank, LoaderState.Carry carry) {
        return Reshard.slots(carry, entries.size()).share(rank.rank(), rank.worldSize());
    }

    @Override
    public EntryCursor open(long epoch, long from, RankInfo rank, long seed, boolean shuffle,
                            LoaderState.Carry carry) {
        RemainingSlots slots = Reshard.slots(carry, entries.size());
        long length = slots.share(rank.rank(), rank.worldSize());
        RemainingSlots.Walker walk = slots.walk(rank.rank() + Math.min(from, length) * rank.worldSize(),
            rank.worldSize());
        // The epoch's order is the same permutation of the samples whatever the number of ranks: slots map to
        // samples as they did for the ranks that saved the state.
        FeistelPermutation order = shuffle
            ? new FeistelPermutation(entries.size(), DistributedSampler.epochKey(seed, epoch)) : null;
        return new EntryCursor() {
            @Override
            public boolean next(LoaderItem item) {
                if (!walk.hasNext()) {
                    return false;
                }
                long slot = walk.next();
                item.describe(entries.get((int) (order == null ? slot : order.apply(slot))));
                return true;
            }

            @Override
            public boolean skip() {
                if (!walk.hasNext()) {
                    return false;
                }
                walk.next();
                return true;
            }

            @Override
            public void close() {
                // nothing open
            }
        };
    }

    @Override
    public long fingerprint() {
        long f = fingerprint;
        if (f == 0) {
            SourceFingerprint fp = new SourceFingerprint();
            for (SampleEntry e : entries) {
                fp.add(e.key());
            }
            f = fp.value();
            fingerprint = f;
        }
        return f;
    }

    @Override
    public String describe() {
        return description;
    }
}
