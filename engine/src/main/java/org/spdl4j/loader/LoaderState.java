package org.spdl4j.loader;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Where a loader stands, exact to the sample: which samples of which epochs are settled — delivered to the consumer
 * in a batch it received, or failed — for one seed and rank. A loader built with the same recipe and
 * {@link LoaderBuilder#resume resumed} from it delivers exactly what the uninterrupted run would have delivered
 * after that point: the rest of each open epoch (in the same order, with input order) and the following epochs.
 *
 * <p>Per open epoch it keeps a low watermark (every position below it settled) and the settled positions above it
 * (only samples that were in flight), so it stays small whatever the dataset's size. One line of text:
 * <pre>
 *   spdl4j-loader/1 seed=42 rank=0/1 epoch=1 source=9c1f04e2b7a3d615 1:1024+1030,1032-1040 2:0+5
 *   (epochs before 1 are done; of epoch 1, positions below 1024 and 1030, 1032..1040 are settled; of epoch 2, 5;
 *   the samples read have that fingerprint: a resumed loader over other samples is refused)
 * </pre>
 * <p>After the world size changed ({@link LoaderBuilder#resume(java.util.Collection)}: every rank's state of a run of
 * N ranks, resumed on M ranks) an open epoch also carries the slots of its order settled before the change
 * ({@link Carry}): that epoch's positions then count this rank's share of the slots not settled, dealt round-robin to
 * the M ranks. Written as {@code x<epoch>/<world>:<watermark>+<slots>}:
 * <pre>
 *   spdl4j-loader/1 seed=42 rank=2/3 epoch=1 1:12 x1/2:2048+2050,2053
 *   (of epoch 1, whose order was dealt to 2 ranks, slots below 2048 and 2050, 2053 were settled before the change;
 *   of this rank's share of the rest, positions below 12)
 * </pre>
 * A value: immutable and thread-safe.
 */
public final class LoaderState {
    /** The format version {@link #encode()} writes. */
    public static final int VERSION = 1;
    private static final String PREFIX = "spdl4j-loader/" + VERSION;
    /**
     * The most settled positions above one watermark a parsed state may hold: only samples in flight are above it,
     * so a state that says more is not one a loader wrote (and would take gigabytes to hold).
     */
    public static final int MAX_POSITIONS_ABOVE = 1 << 24;

    private final long seed;
    private final int rank;
    private final int worldSize;
    private final long epoch;
    private final Map<Long, Mark> marks;
    private final Map<Long, Carry> carried;
    /** The fingerprint of the samples the run read ({@link #source()}), 0 when not recorded. */
    private final long source;

    /**
     * The slots of one epoch's order settled before the number of ranks changed. The epoch's order has
     * {@code (n / world) * world} slots (n samples; the remainder dropped as the first world dropped it); the slots
     * not settled are dealt round-robin to the ranks now running: rank r of M takes the r-th, (r+M)-th, ... of them.
     *
     * @param world the number of ranks the epoch's slots were first dealt to
     * @param slots the settled slots: a watermark (every slot below it) and the settled slots above it
     */
    public record Carry(int world, Mark slots) {
        /** Checks the values. */
        public Carry {
            if (world < 1) {
                throw new IllegalArgumentException("world must be >= 1, got " + world);
            }
            Objects.requireNonNull(slots, "slots");
        }
    }

    /**
     * The settled positions of one open epoch.
     *
     * @param watermark every position below it is settled
     * @param above     settled positions above the watermark, ascending
     */
    public record Mark(long watermark, long[] above) {
        /** Checks the values. */
        public Mark {
            if (watermark < 0) {
                throw new IllegalArgumentException("watermark must be >= 0, got " + watermark);
            }
            above = above.clone();
            for (int i = 0; i < above.length; i++) {
                if (above[i] <= watermark || (i > 0 && above[i] <= above[i - 1])) {
                    throw new IllegalArgumentException("positions above the watermark " + watermark
                        + " must be ascending and above it: " + Arrays.toString(above));
                }
            }
        }

        /** {@return a copy of the settled positions above the watermark} */
        @Override
        public long[] above() {
            return above.clone();
        }

        /** {@return how many positions are settled: the watermark plus those above it} */
        public long settled() {
            return watermark + above.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Mark m && m.watermark == watermark && Arrays.equals(m.above, above);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(watermark) * 31 + Arrays.hashCode(above);
        }

        @Override
        public String toString() {
            return watermark + "+" + Arrays.toString(above);
        }
    }

    /**
     * Creates a state.
     *
     * @param seed      the run's seed (shuffle and transforms)
     * @param rank      the rank it belongs to
     * @param worldSize the number of ranks
     * @param epoch     the first epoch not done; every earlier one is
     * @param marks     the settled positions of epochs from {@code epoch} on (copied)
     */
    public LoaderState(long seed, int rank, int worldSize, long epoch, Map<Long, Mark> marks) {
        this(seed, rank, worldSize, epoch, marks, Map.of());
    }

    /**
     * Creates a state of a run whose world size changed in an open epoch.
     *
     * @param seed      the run's seed (shuffle and transforms)
     * @param rank      the rank it belongs to
     * @param worldSize the number of ranks
     * @param epoch     the first epoch not done; every earlier one is
     * @param marks     the settled positions of epochs from {@code epoch} on (copied)
     * @param carried   the slots settled before the world size changed, of epochs from {@code epoch} on (copied)
     */
    public LoaderState(long seed, int rank, int worldSize, long epoch, Map<Long, Mark> marks,
                       Map<Long, Carry> carried) {
        if (worldSize < 1 || rank < 0 || rank >= worldSize || epoch < 0) {
            throw new IllegalArgumentException("bad state: rank " + rank + " of " + worldSize + ", epoch " + epoch);
        }
        for (long e : marks.keySet()) {
            if (e < epoch) {
                throw new IllegalArgumentException("epoch " + e + " is marked but every epoch before " + epoch
                    + " is done");
            }
        }
        for (long e : carried.keySet()) {
            if (e < epoch) {
                throw new IllegalArgumentException("epoch " + e + " carries slots but every epoch before " + epoch
                    + " is done");
            }
        }
        this.seed = seed;
        this.rank = rank;
        this.worldSize = worldSize;
        this.epoch = epoch;
        this.marks = Collections.unmodifiableMap(new TreeMap<>(marks));
        this.carried = Collections.unmodifiableMap(new TreeMap<>(carried));
        this.source = 0;
    }

    private LoaderState(LoaderState s, long source) {
        this.seed = s.seed;
        this.rank = s.rank;
        this.worldSize = s.worldSize;
        this.epoch = s.epoch;
        this.marks = s.marks;
        this.carried = s.carried;
        this.source = source;
    }

    /**
     * {@return a fingerprint of the samples the run read (their count and keys, or a shard list), or 0 when the state
     * does not record one} A resumed loader whose source has another fingerprint is refused: positions would name
     * other samples.
     */
    public long source() {
        return source;
    }

    /**
     * {@return this state recording the fingerprint of the samples the run read}
     *
     * @param fingerprint the source's fingerprint, 0 for none
     */
    public LoaderState withSource(long fingerprint) {
        return fingerprint == source ? this : new LoaderState(this, fingerprint);
    }

    /**
     * {@return the state of a run that has delivered nothing}
     *
     * @param seed      the run's seed
     * @param rank      the rank
     * @param worldSize the number of ranks
     */
    public static LoaderState start(long seed, int rank, int worldSize) {
        return new LoaderState(seed, rank, worldSize, 0, Map.of());
    }

    /** {@return the run's seed} */
    public long seed() {
        return seed;
    }

    /** {@return the rank} */
    public int rank() {
        return rank;
    }

    /** {@return the number of ranks} */
    public int worldSize() {
        return worldSize;
    }

    /** {@return the first epoch not done} */
    public long epoch() {
        return epoch;
    }

    /** {@return the settled positions of the open epochs, by epoch (unmodifiable, ascending)} */
    public Map<Long, Mark> marks() {
        return marks;
    }

    /**
     * {@return the slots settled before the world size changed, by open epoch (unmodifiable, ascending; empty for a
     * run that never changed it)}
     */
    public Map<Long, Carry> carried() {
        return carried;
    }

    /**
     * {@return the settled positions of an epoch: everything for one before {@link #epoch()}, nothing for one without
     * a mark}
     *
     * @param e the epoch
     */
    public Mark mark(long e) {
        if (e < epoch) {
            return new Mark(Long.MAX_VALUE, new long[0]);
        }
        Mark m = marks.get(e);
        return m != null ? m : new Mark(0, new long[0]);
    }

    /** {@return this state as one line of text, read back by {@link #parse}} */
    public String encode() {
        StringBuilder b = new StringBuilder(PREFIX).append(" seed=").append(seed).append(" rank=").append(rank)
            .append('/').append(worldSize).append(" epoch=").append(epoch);
        if (source != 0) {
            b.append(" source=").append(Long.toHexString(source));
        }
        for (Map.Entry<Long, Mark> e : marks.entrySet()) {
            b.append(' ').append(e.getKey()).append(':');
            appendMark(b, e.getValue());
        }
        for (Map.Entry<Long, Carry> e : carried.entrySet()) {
            b.append(" x").append(e.getKey()).append('/').append(e.getValue().world()).append(':');
            appendMark(b, e.getValue().slots());
        }
        return b.toString();
    }

    private static void appendMark(StringBuilder b, Mark mark) {
        b.append(mark.watermark());
        long[] above = mark.above;
        for (int i = 0; i < above.length; ) {
            int j = i;
            while (j + 1 < above.length && above[j + 1] == above[j] + 1) {
                j++;
            }
            b.append(i == 0 ? '+' : ',').append(above[i]);
            if (j > i) {
                b.append('-').append(above[j]);
            }
            i = j + 1;
        }
    }

    /**
     * Reads a state written by {@link #encode()}.
     *
     * @param text the encoded state
     * @return the state
     * @throws IllegalArgumentException when the text is not an encoded state; the message quotes it
     */
    public static LoaderState parse(String text) {
        String[] parts = text.strip().split(" +");
        if (parts.length < 4 || !parts[0].equals(PREFIX)) {
            throw new IllegalArgumentException("not a " + PREFIX + " state: '" + text + "'");
        }
        try {
            long seed = Long.parseLong(value(parts[1], "seed", text));
            String[] r = value(parts[2], "rank", text).split("/");
            long epoch = Long.parseLong(value(parts[3], "epoch", text));
            Map<Long, Mark> marks = new TreeMap<>();
            Map<Long, Carry> carried = new TreeMap<>();
            int first = 4;
            long source = 0;
            if (parts.length > 4 && parts[4].startsWith("source=")) {
                source = Long.parseUnsignedLong(value(parts[4], "source", text), 16);
                first = 5;
            }
            for (int i = first; i < parts.length; i++) {
                String part = parts[i];
                int colon = part.indexOf(':');
                Mark mark = parseMark(part.substring(colon + 1));
                if (part.startsWith("x")) {
                    int slash = part.indexOf('/');
                    carried.put(Long.parseLong(part.substring(1, slash)),
                        new Carry(Integer.parseInt(part.substring(slash + 1, colon)), mark));
                } else {
                    marks.put(Long.parseLong(part.substring(0, colon)), mark);
                }
            }
            return new LoaderState(seed, Integer.parseInt(r[0]), Integer.parseInt(r[1]), epoch, marks, carried)
                .withSource(source);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad loader state '" + text + "': " + e.getMessage(), e);
        }
    }

    private static Mark parseMark(String text) {
        int plus = text.indexOf('+');
        long watermark = Long.parseLong(text.substring(0, plus < 0 ? text.length() : plus));
        return new Mark(watermark, plus < 0 ? new long[0] : ranges(text.substring(plus + 1)));
    }

    private static long[] ranges(String list) {
        long[] out = new long[8];
        int n = 0;
        for (String range : list.split(",")) {
            int dash = range.indexOf('-');
            long from = Long.parseLong(dash < 0 ? range : range.substring(0, dash));
            long to = dash < 0 ? from : Long.parseLong(range.substring(dash + 1));
            if (to < from || to - from >= MAX_POSITIONS_ABOVE - n) {
                throw new IllegalArgumentException("positions above a watermark must be ascending ranges of at most "
                    + MAX_POSITIONS_ABOVE + " in all; got '" + range + "'");
            }
            for (long p = from; p <= to; p++) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, 2 * n);
                }
                out[n++] = p;
            }
        }
        return Arrays.copyOf(out, n);
    }

    private static String value(String part, String name, String text) {
        if (!part.startsWith(name + "=")) {
            throw new IllegalArgumentException("expected '" + name + "=' in '" + text + "'");
        }
        return part.substring(name.length() + 1);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LoaderState s && s.seed == seed && s.rank == rank && s.worldSize == worldSize
            && s.epoch == epoch && s.marks.equals(marks) && s.carried.equals(carried) && s.source == source;
    }

    @Override
    public int hashCode() {
        return Objects.hash(seed, rank, worldSize, epoch, marks, carried, source);
    }

    @Override
    public String toString() {
        return encode();
    }
}
