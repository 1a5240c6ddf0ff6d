package org.spdl4j.engine.source;

import java.util.Map;

/**
 * This process's place among data-parallel ranks: which share of the data it reads.
 *
 * <p>spdl4j runs inside each rank of whatever launched the job (torchrun and friends set {@code RANK} and
 * {@code WORLD_SIZE}); it needs no coordination between ranks, since every rank computes the same permutation from the
 * same seed and epoch and takes its own slots of it.
 *
 * @param rank      this rank, {@code 0 <= rank < worldSize}
 * @param worldSize the number of ranks, at least 1
 */
public record RankInfo(int rank, int worldSize) {
    /** The environment variable holding the rank. */
    public static final String RANK_ENV = "RANK";
    /** The environment variable holding the world size. */
    public static final String WORLD_SIZE_ENV = "WORLD_SIZE";
    /** A single process reading everything. */
    public static final RankInfo SINGLE = new RankInfo(0, 1);

    /**
     * Checks the components.
     *
     * @param rank      this rank
     * @param worldSize the number of ranks
     */
    public RankInfo {
        if (worldSize < 1 || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("need 0 <= rank < worldSize, got rank=" + rank + " worldSize="
                    + worldSize);
        }
    }

    /** {@return the rank from {@code RANK} / {@code WORLD_SIZE}, or {@link #SINGLE} when neither is set} */
    public static RankInfo fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * Reads the rank from a map of environment variables (testable form of {@link #fromEnvironment()}).
     *
     * @param env the environment
     * @return the rank, or {@link #SINGLE} when neither variable is set
     * @throws IllegalArgumentException when only one is set, either is not a whole number, or the rank is not below
     *                                  the world size; the message names both variables and their values
     */
    public static RankInfo fromEnvironment(Map<String, String> env) {
        String r = env.get(RANK_ENV);
        String w = env.get(WORLD_SIZE_ENV);
        if (r == null && w == null) {
            return SINGLE;
        }
        String got = "environment variables " + RANK_ENV + "=" + (r == null ? "(unset)" : r) + " "
                + WORLD_SIZE_ENV + "=" + (w == null ? "(unset)" : w);
        if (r == null || w == null) {
            throw new IllegalArgumentException(got + ": set both or neither");
        }
        final int rank;
        final int worldSize;
        try {
            rank = Integer.parseInt(r.trim());
            worldSize = Integer.parseInt(w.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(got + ": both must be whole numbers", e);
        }
        if (worldSize < 1 || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException(got + ": need " + WORLD_SIZE_ENV + " >= 1 and 0 <= " + RANK_ENV + " < "
                    + WORLD_SIZE_ENV);
        }
        return new RankInfo(rank, worldSize);
    }
}
