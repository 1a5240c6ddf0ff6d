package org.spdl4j.loader;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.spdl4j.loader.internal.EntrySource;
import org.spdl4j.loader.internal.MixedEntries;

/**
 * Builds a weighted mixture of sources ({@link SampleSource#mix()}): one loader draws from several datasets in fixed
 * proportions, as tf.data's {@code sample_from_datasets} or Grain's {@code mix} do, with exact resume.
 *
 * <pre>{@code
 * SampleSource train = SampleSource.mix()
 *     .add(SampleSource.folder(Path.of("imagenet/train")), 0.8)
 *     .add(SampleSource.tarShards(Path.of("extra-shards")), 0.2)
 *     .samplesPerEpoch(1_000_000)          // optional: else an epoch ends where a part runs out
 *     .build();
 * }</pre>
 *
 * <p><b>Proportions.</b> The interleave is deterministic, not drawn at random: on every rank, every prefix of an
 * epoch holds each part in proportion to its weight, within half a sample for two parts and within
 * {@code parts / 2} samples for more (weights 3:1 give {@code A A B A A A B A ...}).
 * Each part keeps its own order (folders and lists shuffled per epoch by the loader's seed, each part by its own
 * stream of it; tar shards in their shard order), so the mixture is as random as its parts.
 *
 * <p><b>Epochs.</b> By default an epoch ends where the interleave reaches a part with no sample left: no sample
 * repeats within an epoch, and the larger parts give the share of theirs the weights ask for. With
 * {@link #samplesPerEpoch}, every epoch has that many samples (over all ranks) and a part that runs out starts over,
 * in a new order and with new transform seeds: small datasets are up-sampled.
 *
 * <p><b>Parts.</b> Any sources whose bytes one read stage can fetch: local files (folders, path lists, lists of
 * entries) with each other and with local tar shards; URLs with URLs; objects of one store with each other. Keys and
 * labels are the parts' own: give the parts labels that do not collide where classes differ (a list's labels are
 * written in it; {@link SampleSource#classes} for tar shards).
 *
 * <p><b>Resume.</b> Exact, on the number of ranks the run was saved with (each rank interleaves its own share of
 * every part); resuming on another number of ranks is refused.
 *
 * <p>A builder: not thread safe; {@link #build()} gives an immutable source.
 */
public final class SampleMix {
    private final List<EntrySource> parts = new ArrayList<>();
    private final List<Double> weights = new ArrayList<>();
    private long samplesPerEpoch = EntrySource.UNKNOWN_LENGTH;

    SampleMix() {
    }

    /**
     * Adds a part.
     *
     * @param part   the source
     * @param weight its share of every epoch relative to the other parts' (finite, above 0; only ratios matter)
     * @return this builder
     * @throws IllegalArgumentException when the weight is not finite and positive
     */
    public SampleMix add(SampleSource part, double weight) {
        Objects.requireNonNull(part, "part");
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("weight of " + part.describe() + ": " + weight
                + " is not a finite number above 0");
        }
        parts.add(part.entries());
        weights.add(weight);
        return this;
    }

    /**
     * Gives every epoch {@code n} samples over all ranks (each rank {@code n / worldSize}); parts that run out start
     * over within the epoch. Without it an epoch ends where the first part runs out.
     *
     * @param n samples per epoch, at least 1
     * @return this builder
     * @throws IllegalArgumentException when {@code n < 1}
     */
    public SampleMix samplesPerEpoch(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("samples per epoch must be >= 1, got " + n);
        }
        samplesPerEpoch = n;
        return this;
    }

    /**
     * {@return the mixture}
     *
     * @throws IllegalArgumentException when no part was added, or the parts cannot share a read stage (local files
     *                                  and URLs, say)
     */
    public SampleSource build() {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a mixture needs at least one part: add(source, weight)");
        }
        double[] w = new double[weights.size()];
        for (int j = 0; j < w.length; j++) {
            w[j] = weights.get(j);
        }
        return SampleSource.wrap(new MixedEntries(parts, w, samplesPerEpoch));
    }
}
