package org.spdl4j.engine.source;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

/**
 * Several sources interleaved at random by weight (as SPDL's {@code MergeIterator}): each item comes from source
 * {@code i} with probability {@code w_i / sum(w)} among the sources still running. The picks are drawn from a
 * {@link SplittableRandom} seeded by {@code (seed, epoch)}, so the same seed and epoch give the same interleaving.
 *
 * <p><b>Resume:</b> opening at position {@code p} replays the first {@code p} picks without reading any item when every
 * child knows its {@link EpochSource#epochLength()} (O(p) arithmetic, no I/O), then opens each child at its own count;
 * otherwise it reads and discards {@code p} items (closing those that are {@link AutoCloseable}).
 *
 * <p><b>Threading:</b> immutable, thread-safe to open; each iterator is single-threaded. <b>Allocation:</b> none per
 * item beyond the children's own. <b>Blocking:</b> as the children.
 *
 * @param <T> the item type
 */
public final class WeightedMixSource<T> implements EpochSource<T> {
    private final List<EpochSource<? extends T>> sources;
    private final double[] weights;
    private final long seed;
    private final MixStopPolicy stop;

    /**
     * Creates a mixture.
     *
     * @param sources the sources, at least one
     * @param weights one positive weight per source (need not sum to 1)
     * @param seed    the seed of the interleaving
     * @param stop    when an epoch of the mixture ends
     */
    public WeightedMixSource(List<? extends EpochSource<? extends T>> sources, double[] weights, long seed,
            MixStopPolicy stop) {
        if (sources.isEmpty() || sources.size() != weights.length) {
            throw new IllegalArgumentException("need one weight per source, at least one source: " + sources.size()
                    + " sources, " + weights.length + " weights");
        }
        double total = 0;
        for (double w : weights) {
            if (!(w > 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("weights must be positive and finite: " + Arrays.toString(weights));
            }
            total += w;
        }
        if (Double.isInfinite(total)) { // each finite, the sum not: every draw would land on the last source
            throw new IllegalArgumentException("weights " + Arrays.toString(weights)
                    + " sum past the largest double; scale them down (only their ratios matter)");
        }
        this.sources = List.copyOf(sources);
        this.weights = weights.clone();
        this.seed = seed;
        this.stop = stop;
    }

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public long epochLength() {
        if (stop == MixStopPolicy.FIRST_EXHAUSTED) {
            return UNKNOWN_LENGTH; // depends on the draws
        }
        long sum = 0;
        for (EpochSource<? extends T> s : sources) {
            if (s.epochLength() == UNKNOWN_LENGTH) {
                return UNKNOWN_LENGTH;
            }
            long length = s.epochLength();
            if (sum > Long.MAX_VALUE - length) {
                return UNKNOWN_LENGTH; // longer than a long can count (sources near Long.MAX_VALUE items each)
            }
            sum += length;
        }
        return sum;
    }

    @Override
    public CloseableIterator<T> open(long epoch, long position) {
        Mixer m = new Mixer(epoch);
        try {
            long[] lengths = sources.stream().mapToLong(EpochSource::epochLength).toArray();
            if (Arrays.stream(lengths).allMatch(l -> l != UNKNOWN_LENGTH)) {
                m.replay(position, lengths);
            } else {
                for (long i = 0; i < position && m.hasNext(); i++) {
                    if (m.next() instanceof AutoCloseable c) {
                        try {
                            c.close();
                        } catch (Exception e) {
                            throw new IllegalStateException("closing a skipped item failed", e);
                        }
                    }
                }
            }
            return m;
        } catch (RuntimeException | Error e) {
            m.close(); // the caller never gets the mixer: close the children it opened while skipping
            throw e;
        }
    }

    private final class Mixer implements CloseableIterator<T> {
        private final long epoch;
        private final SplittableRandom random;
        private final List<CloseableIterator<? extends T>> open = new ArrayList<>();
        private final long[] startAt = new long[sources.size()];
        private final boolean[] active = new boolean[sources.size()];
        private double activeWeight;
        private int pending = -1;
        private boolean done;

        Mixer(long epoch) {
            this.epoch = epoch;
            this.random = new SplittableRandom(DistributedSampler.epochKey(seed, epoch));
            for (int i = 0; i < sources.size(); i++) {
                open.add(null);
                active[i] = true;
                activeWeight += weights[i];
            }
        }

        /** One draw among the active sources: exactly one random number per call, live or replayed. */
        private int draw() {
            double u = random.nextDouble() * activeWeight;
            int last = -1;
            for (int i = 0; i < active.length; i++) {
                if (active[i]) {
                    last = i;
                    u -= weights[i];
                    if (u < 0) {
                        return i;
                    }
                }
            }
            return last; // rounding at the top end
        }

        /** Returns false when the picked source has run out and the mixture ends. */
        private boolean exhausted(int i) {
            if (stop == MixStopPolicy.FIRST_EXHAUSTED) {
                done = true;
                return true;
            }
            active[i] = false;
            activeWeight -= weights[i];
            boolean any = false;
            for (boolean a : active) {
                any |= a;
            }
            done = !any;
            return done;
        }

        void replay(long position, long[] lengths) {
            long[] taken = new long[lengths.length];
            for (long n = 0; n < position && !done; ) {
                int i = draw();
                if (taken[i] < lengths[i]) {
                    taken[i]++;
                    n++;
                } else {
                    exhausted(i);
                }
            }
            System.arraycopy(taken, 0, startAt, 0, taken.length);
        }

        private CloseableIterator<? extends T> child(int i) {
            CloseableIterator<? extends T> it = open.get(i);
            if (it == null) {
                it = sources.get(i).open(epoch, startAt[i]);
                open.set(i, it);
            }
            return it;
        }

        @Override
        public boolean hasNext() {
            try {
                while (pending < 0 && !done) {
                    int i = draw();
                    if (child(i).hasNext()) {
                        pending = i;
                    } else if (exhausted(i)) {
                        close();
                    }
                }
                return pending >= 0;
            } catch (RuntimeException | Error e) {
                close(); // one child failed: the mixture ends, and the other children's files are closed now
                throw e;
            }
        }

        @Override
        public T next() {
            if (!hasNext()) {
                throw new NoSuchElementException("mixture epoch " + epoch + " is done");
            }
            int i = pending;
            pending = -1;
            try {
                return child(i).next();
            } catch (RuntimeException | Error e) {
                close();
                throw e;
            }
        }

        @Override
        public void close() {
            done = true;
            pending = -1;
            for (int i = 0; i < open.size(); i++) {
                CloseableIterator<? extends T> child = open.get(i);
                if (child != null) {
                    open.set(i, null); // first: a child whose close throws is not closed twice
                    child.close();
                }
            }
        }
    }
}
