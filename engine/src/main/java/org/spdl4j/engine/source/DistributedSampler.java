package org.spdl4j.engine.source;

import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * Which dataset indices this rank reads in each epoch: a shuffled (or sequential) order of {@code [0, n)} that all
 * ranks compute alike, dealt round-robin to ranks, with equal counts per rank.
 *
 * <p>Epoch {@code e} uses the order {@code p_e(0), p_e(1), ...} where {@code p_e} is a {@link FeistelPermutation} keyed
 * by {@code (seed, e)} (or the identity without shuffling). Rank {@code r} of {@code W} takes global slots
 * {@code r, r + W, r + 2W, ...}; its {@code j}-th item is {@code p_e(r + j*W)} (slots past {@code n} wrap, in
 * {@link RemainderPolicy#PAD} mode). The same seed and epoch give the same order on every run and machine; another
 * epoch gives another order; the union over ranks is the epoch's order exactly once (when {@code W} divides {@code n}).
 *
 * <p><b>Memory:</b> O(1), whatever {@code n}: nothing is materialised. <b>Threading:</b> immutable, thread-safe;
 * the iterators it returns are single-threaded. <b>Allocation:</b> {@link #index} allocates one small permutation
 * object per call; {@link #indices} allocates once per iterator.
 */
public final class DistributedSampler {
    private final long datasetSize;
    private final RankInfo rank;
    private final long seed;
    private final boolean shuffle;
    private final RemainderPolicy remainder;
    private final long perRank;

    /**
     * Creates a sampler.
     *
     * @param datasetSize the number of items n, zero or more
     * @param rank        this rank and the world size
     * @param seed        the shuffle seed, identical on all ranks
     * @param shuffle     false for the natural order {@code 0..n-1} (still sharded)
     * @param remainder   how to equalise counts when the world size does not divide n
     */
    public DistributedSampler(long datasetSize, RankInfo rank, long seed, boolean shuffle,
            RemainderPolicy remainder) {
        if (datasetSize < 0) {
            throw new IllegalArgumentException("dataset size must be >= 0: " + datasetSize);
        }
        this.datasetSize = datasetSize;
        this.rank = rank;
        this.seed = seed;
        this.shuffle = shuffle;
        this.remainder = remainder;
        long w = rank.worldSize();
        this.perRank = datasetSize == 0 ? 0
                : remainder == RemainderPolicy.DROP ? datasetSize / w
                : datasetSize / w + (datasetSize % w == 0 ? 0 : 1); // ceil without datasetSize + w - 1 wrapping
    }

    /** {@return the number of items this rank (and every other rank) reads per epoch} */
    public long samplesPerRank() {
        return perRank;
    }

    /** {@return the dataset size n} */
    public long datasetSize() {
        return datasetSize;
    }

    /** {@return the shuffle seed} */
    public long seed() {
        return seed;
    }

    /** {@return this rank and the world size} */
    public RankInfo rank() {
        return rank;
    }

    /**
     * The dataset index of this rank's {@code position}-th item of an epoch.
     *
     * @param epoch    the epoch, from 0
     * @param position the position in this rank's share, {@code 0 <= position < samplesPerRank()}
     * @return the dataset index, in {@code [0, n)}
     */
    public long index(long epoch, long position) {
        return indexWith(permutation(epoch), position);
    }

    /**
     * This rank's indices for an epoch from a position on.
     *
     * @param epoch the epoch, from 0
     * @param from  the first position, {@code 0 <= from <= samplesPerRank()}
     * @return an iterator over {@code index(epoch, from) ... index(epoch, samplesPerRank() - 1)}
     */
    public PrimitiveIterator.OfLong indices(long epoch, long from) {
        if (from < 0 || from > perRank) {
            throw new IndexOutOfBoundsException("position " + from + " outside [0, " + perRank + "]");
        }
        FeistelPermutation p = permutation(epoch);
        return new PrimitiveIterator.OfLong() {
            private long next = from;

            @Override
            public boolean hasNext() {
                return next < perRank;
            }

            @Override
            public long nextLong() {
                if (next >= perRank) {
                    throw new NoSuchElementException("epoch " + epoch + " of rank " + rank + " is done");
                }
                return indexWith(p, next++);
            }
        };
    }

    private FeistelPermutation permutation(long epoch) {
        return shuffle ? new FeistelPermutation(datasetSize, epochKey(seed, epoch)) : null;
    }

    private long indexWith(FeistelPermutation p, long position) {
        if (position < 0 || position >= perRank) {
            throw new IndexOutOfBoundsException("position " + position + " outside [0, " + perRank + ")");
        }
        // Below perRank * worldSize < datasetSize + worldSize, which may pass Long.MAX_VALUE for a dataset within
        // worldSize of it: compare and wrap as unsigned (the true value is below 2^64).
        long slot = rank.rank() + position * rank.worldSize();
        if (Long.compareUnsigned(slot, datasetSize) >= 0) {
            slot = Long.remainderUnsigned(slot, datasetSize); // PAD: wrap to the start of the epoch's order
        }
        return p == null ? slot : p.apply(slot);
    }

    /**
     * The permutation key of an epoch: the seed and epoch mixed so that nearby seeds or epochs give unrelated orders.
     *
     * @param seed  the seed
     * @param epoch the epoch
     * @return the key
     */
    public static long epochKey(long seed, long epoch) {
        return FeistelPermutation.mix64(seed ^ FeistelPermutation.mix64(epoch + 0x632BE59BD9B4E019L));
    }
}
