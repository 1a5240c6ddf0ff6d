package org.spdl4j.engine.source;

/**
 * A source whose items come in epochs, each a deterministic sequence that can be opened at any position: the
 * building block of exact resume. Implementations: {@link SampledSource} (indexed datasets),
 * {@link org.spdl4j.engine.source.tar.WebDatasetSource} (tar shards), {@link WeightedMixSource} (mixtures).
 *
 * <p><b>Contract:</b> for a fixed source, {@code open(e, p)} yields exactly the items {@code p, p+1, ...} of what
 * {@code open(e, 0)} yields, in the same order, on every call and every run. Implementations are thread-safe to open
 * (each iterator is used by one thread). Opening may block on I/O.
 *
 * @param <T> the item type
 */
public interface EpochSource<T> {
    /** Returned by {@link #epochLength()} when the length is only known after reading the epoch. */
    long UNKNOWN_LENGTH = -1;

    /**
     * Opens an epoch at a position.
     *
     * @param epoch    the epoch, from 0
     * @param position the number of leading items of the epoch to skip
     * @return the iterator over the rest of the epoch; the caller closes it if it stops early
     */
    CloseableIterator<T> open(long epoch, long position);

    /** {@return the seed that fixes the order, recorded in {@link SourceState} and checked on resume} */
    long seed();

    /** {@return the number of items in every epoch, or {@link #UNKNOWN_LENGTH}} */
    default long epochLength() {
        return UNKNOWN_LENGTH;
    }
}
