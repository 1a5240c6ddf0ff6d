package org.spdl4j.media;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded random mutations of valid media for fuzzing: bit flips (half of them in the first KiB, where headers are),
 * truncations, splices of two inputs, random overwrites and duplicated chunks. Each mutation says what it did, so a
 * failure can be reproduced from the seed and the iteration.
 */
final class Mutator {
    /** A mutated input and how it was made. */
    record Mutant(byte[] bytes, String how) {
    }

    private final SplittableRandom random;
    private final List<byte[]> seeds;

    Mutator(long seed, List<byte[]> seeds) {
        this.random = new SplittableRandom(seed);
        this.seeds = List.copyOf(seeds);
    }

    Mutant next() {
        byte[] base = seeds.get(random.nextInt(seeds.size()));
        return switch (random.nextInt(5)) {
            case 0 -> flips(base);
            case 1 -> truncate(base);
            case 2 -> splice(base, seeds.get(random.nextInt(seeds.size())));
            case 3 -> overwrite(base);
            default -> duplicate(base);
        };
    }

    private Mutant flips(byte[] base) {
        byte[] b = base.clone();
        int n = 1 + random.nextInt(8);
        StringBuilder how = new StringBuilder("flip");
        for (int i = 0; i < n; i++) {
            int limit = random.nextBoolean() ? Math.min(1024, b.length) : b.length;
            int at = random.nextInt(limit);
            int bit = random.nextInt(8);
            b[at] ^= (byte) (1 << bit);
            how.append(' ').append(at).append('.').append(bit);
        }
        return new Mutant(b, how.toString());
    }

    private Mutant truncate(byte[] base) {
        int length = random.nextInt(base.length);
        return new Mutant(Arrays.copyOf(base, length), "truncate to " + length);
    }

    private Mutant splice(byte[] a, byte[] b) {
        int cutA = random.nextInt(a.length);
        int cutB = random.nextInt(b.length);
        byte[] out = Arrays.copyOf(a, cutA + b.length - cutB);
        System.arraycopy(b, cutB, out, cutA, b.length - cutB);
        return new Mutant(out, "splice a[0," + cutA + ") + b[" + cutB + ",)");
    }

    private Mutant overwrite(byte[] base) {
        byte[] b = base.clone();
        int at = random.nextInt(b.length);
        int n = Math.min(b.length - at, 1 + random.nextInt(64));
        for (int i = 0; i < n; i++) {
            b[at + i] = (byte) random.nextInt(256);
        }
        return new Mutant(b, "overwrite " + n + " at " + at);
    }

    private Mutant duplicate(byte[] base) {
        int at = random.nextInt(base.length);
        int n = Math.min(base.length - at, 1 + random.nextInt(512));
        byte[] out = new byte[base.length + n];
        System.arraycopy(base, 0, out, 0, at + n);
        System.arraycopy(base, at, out, at + n, base.length - at);
        return new Mutant(out, "duplicate " + n + " at " + at);
    }
}
