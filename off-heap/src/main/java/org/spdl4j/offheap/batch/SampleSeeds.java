package org.spdl4j.offheap.batch;

/**
 * Per-image seeds for random augmentation (a random resized crop) that depend only on what identifies the sample:
 * a run seed, the epoch and the sample's id. The same sample in the same epoch of the same run gets the same seed on
 * any thread, rank, worker count or output order, so a resumed or repeated epoch reproduces its crops; nothing is
 * shared between decoder threads (no {@code java.util.Random}, no contention).
 *
 * <p>Each mixing step is a bijection of the value it mixes in, so within one run and epoch distinct sample ids always
 * get distinct seeds; across epochs and runs they are as unrelated as a 64-bit hash makes them.
 *
 * <p>Thread safe (static, pure). Allocates nothing.
 */
public final class SampleSeeds {
    /** Separates these seeds from other uses of the same run seed (e.g. the shuffle): "spdl4jRR" in ASCII. */
    private static final long DOMAIN = 0x7370646C346A5252L;
    /** 2^64 / golden ratio, odd: consecutive epochs land far apart before mixing. */
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private static final long FNV_OFFSET = 0xCBF29CE484222325L;
    private static final long FNV_PRIME = 0x100000001B3L;

    private SampleSeeds() {
    }

    /**
     * The seed of one sample in one epoch.
     *
     * @param runSeed the run's seed (e.g. the command line's {@code --seed})
     * @param epoch the epoch, from 0
     * @param sampleId what identifies the sample: its index in the dataset, or {@link #keyId} of its key
     * @return the seed to pass to the decoder for this sample
     */
    public static long of(final long runSeed, final long epoch, final long sampleId) {
        long h = mix64(runSeed ^ DOMAIN);
        h = mix64(h + epoch * GOLDEN_GAMMA);
        return mix64(h ^ sampleId);
    }

    /**
     * A 64-bit id for a sample key (FNV-1a over its UTF-16 chars): stable across runs, JVMs and dataset orderings,
     * unlike a position. Reads the chars in place, allocates nothing.
     *
     * @param key the sample's key, e.g. its path relative to the dataset root
     * @return the id
     */
    public static long keyId(final CharSequence key) {
        long h = FNV_OFFSET;
        for (int i = 0, n = key.length(); i < n; i++) {
            h = (h ^ key.charAt(i)) * FNV_PRIME;
        }
        return h;
    }

    /**
     * SplitMix64's output function (Stafford's variant 13): a bijection on 64-bit values with full avalanche, so nearby
     * inputs give unrelated outputs.
     *
     * @param z the value to mix
     * @return the mixed value
     */
    public static long mix64(final long z) {
        long x = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
        return x ^ (x >>> 31);
    }
}
