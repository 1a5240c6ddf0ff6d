package org.spdl4j.engine.source;

/**
 * A keyed pseudo-random permutation of {@code [0, n)} computed one element at a time, in O(1) memory.
 *
 * <p>How: a balanced Feistel network over {@code 2h} bits (the smallest even width with {@code 2^(2h) >= n}), six
 * rounds, each round function a 64-bit mixer of the half-block and a round key derived from the key. A Feistel network
 * is a bijection of its domain whatever the round function; cycle-walking (re-applying it while the result is
 * {@code >= n}) restricts that bijection to {@code [0, n)}. The domain is less than {@code 4n}, so a lookup takes under
 * four applications on average.
 *
 * <p>This is what lets a sampler shuffle 100 million items without a list of 100 million indices: the shuffled order
 * is a function, not an array. Not a cryptographic permutation; its purpose is an unbiased-looking, reproducible order.
 *
 * <p><b>Threading:</b> immutable, thread-safe. <b>Allocation:</b> none in {@link #apply}.
 */
public final class FeistelPermutation {
    private static final int ROUNDS = 6;
    private final long n;
    private final int halfBits;
    private final long halfMask;
    private final long[] roundKeys = new long[ROUNDS];

    /**
     * Creates the permutation of {@code [0, n)} for a key.
     *
     * @param n   the domain size, zero or more
     * @param key the key; each key gives another permutation
     */
    public FeistelPermutation(long n, long key) {
        if (n < 0) {
            throw new IllegalArgumentException("domain size must be >= 0: " + n);
        }
        this.n = n;
        int bits = n <= 1 ? 2 : 64 - Long.numberOfLeadingZeros(n - 1);
        bits = Math.max(2, bits + (bits & 1));
        this.halfBits = bits / 2;
        this.halfMask = (1L << halfBits) - 1;
        long k = key;
        for (int i = 0; i < ROUNDS; i++) {
            k = mix64(k + 0x9E3779B97F4A7C15L);
            roundKeys[i] = k;
        }
    }

    /** {@return the domain size n} */
    public long size() {
        return n;
    }

    /**
     * Maps an element of the domain to its place in the permuted order.
     *
     * @param x an element, {@code 0 <= x < n}
     * @return the image of {@code x}, {@code 0 <= result < n}; distinct inputs give distinct results
     */
    public long apply(long x) {
        if (x < 0 || x >= n) {
            throw new IndexOutOfBoundsException("element " + x + " outside [0, " + n + ")");
        }
        long y = x;
        do {
            y = encrypt(y);
        } while (Long.compareUnsigned(y, n) >= 0); // cycle-walk: ends, as y's orbit under the bijection contains x < n;
        // unsigned: with a 64-bit domain the block may have its top bit set
        return y;
    }

    private long encrypt(long block) {
        long left = block >>> halfBits;
        long right = block & halfMask;
        for (int i = 0; i < ROUNDS; i++) {
            long next = left ^ (mix64(right ^ roundKeys[i]) & halfMask);
            left = right;
            right = next;
        }
        return (left << halfBits) | right;
    }

    /**
     * A 64-bit finalizing mixer (the SplitMix64 output function): every input bit affects every output bit.
     *
     * @param z the input
     * @return the mixed value
     */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
