package org.spdl4j.loader.internal;

import java.util.BitSet;

/**
 * The settled positions of one epoch, compactly: a low watermark (every position below it is settled) and a bitmap
 * of the settled positions above it. In completion order only the samples in flight are ahead of the watermark, so
 * the bitmap stays small; it is rebased (its settled prefix dropped) as the watermark moves on.
 *
 * <p><b>Threading:</b> not thread-safe; {@link Progress} guards it. <b>Allocation:</b> the bitmap's words grow with the
 * spread of positions in flight; a rebase copies the live part.
 */
final class PositionSet {
    /** Drop the bitmap's settled prefix once it is this many bits long. */
    private static final int REBASE_BITS = 1 << 16;
    private long watermark;
    /** The position of bit 0 of {@link #bits}; at most {@link #watermark}. */
    private long origin;
    private BitSet bits = new BitSet();

    PositionSet(long watermark) {
        this.watermark = watermark;
        this.origin = watermark;
    }

    /** {@return every position below it is settled} */
    long watermark() {
        return watermark;
    }

    /**
     * Records a settled position.
     *
     * @param position the position
     * @return false when it was settled already
     */
    boolean add(long position) {
        if (contains(position)) {
            return false;
        }
        if (position - origin >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("settled position " + position + " is " + (position - watermark)
                + " past the first position not settled (" + watermark + "); at most " + (Integer.MAX_VALUE - 1)
                + " positions can be tracked ahead of it (one sample far behind the others was never settled)");
        }
        bits.set((int) (position - origin));
        while (bits.get((int) (watermark - origin))) {
            watermark++;
        }
        if (watermark - origin >= REBASE_BITS) {
            int shift = (int) (watermark - origin);
            bits = bits.get(shift, Math.max(shift, bits.length()));
            origin = watermark;
        }
        return true;
    }

    /** {@return whether the position is settled} */
    boolean contains(long position) {
        return position < watermark || (position - origin < Integer.MAX_VALUE && bits.get((int) (position - origin)));
    }

    /** {@return the settled positions above the watermark, ascending} */
    long[] above() {
        BitSet live = bits.get((int) (watermark - origin), Math.max((int) (watermark - origin), bits.length()));
        long[] out = new long[live.cardinality()];
        int k = 0;
        for (int i = live.nextSetBit(0); i >= 0; i = live.nextSetBit(i + 1)) {
            out[k++] = watermark + i;
        }
        return out;
    }
}
