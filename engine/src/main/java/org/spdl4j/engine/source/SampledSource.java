package org.spdl4j.engine.source;

import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * An {@link IndexedDataset} read in the order a {@link DistributedSampler} gives: this rank's share, shuffled per
 * epoch, equal counts on all ranks. Opening at a position costs O(1) (the order is a function of the position).
 *
 * <p><b>Threading:</b> immutable and thread-safe; each iterator is single-threaded. <b>Allocation:</b> one small
 * iterator per {@link #open}; items are whatever {@link IndexedDataset#get} returns.
 *
 * @param <T> the item type
 */
public final class SampledSource<T> implements EpochSource<T> {
    private final IndexedDataset<T> dataset;
    private final DistributedSampler sampler;

    /**
     * Creates the source.
     *
     * @param dataset the items
     * @param sampler the sampler; its dataset size must be {@code dataset.size()}
     */
    public SampledSource(IndexedDataset<T> dataset, DistributedSampler sampler) {
        if (sampler.datasetSize() != dataset.size()) {
            throw new IllegalArgumentException("sampler is for " + sampler.datasetSize() + " items but the dataset has "
                    + dataset.size());
        }
        this.dataset = dataset;
        this.sampler = sampler;
    }

    /**
     * Creates the source and its sampler in one call.
     *
     * @param dataset   the items
     * @param rank      this rank (see {@link RankInfo#fromEnvironment()})
     * @param seed      the shuffle seed, identical on every rank
     * @param shuffle   whether to shuffle per epoch
     * @param remainder how to equalise counts per rank
     * @param <T>       the item type
     * @return the source
     */
    public static <T> SampledSource<T> of(IndexedDataset<T> dataset, RankInfo rank, long seed, boolean shuffle,
            RemainderPolicy remainder) {
        return new SampledSource<>(dataset, new DistributedSampler(dataset.size(), rank, seed, shuffle, remainder));
    }

    /** {@return the sampler} */
    public DistributedSampler sampler() {
        return sampler;
    }

    @Override
    public CloseableIterator<T> open(long epoch, long position) {
        PrimitiveIterator.OfLong indices = sampler.indices(epoch, position);
        return CloseableIterator.of(new java.util.Iterator<T>() {
            @Override
            public boolean hasNext() {
                return indices.hasNext();
            }

            @Override
            public T next() {
                if (!indices.hasNext()) {
                    throw new NoSuchElementException("epoch " + epoch + " is done");
                }
                return dataset.get(indices.nextLong());
            }
        });
    }

    @Override
    public long seed() {
        return sampler.seed();
    }

    @Override
    public long epochLength() {
        return sampler.samplesPerRank();
    }
}
