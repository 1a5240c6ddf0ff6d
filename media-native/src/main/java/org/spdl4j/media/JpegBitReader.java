package org.spdl4j.media;

import org.agrona.UnsafeApi;

/**
 * The state of a bit reader over one JPEG scan's entropy-coded bytes in native memory, and its rare paths: the
 * byte-wise refill, the truncation check, the restart marker and the search for the marker that ends the scan.
 *
 * <pre>
 *   bits:  | next stream bit (bit 63) ... | zeros |     the register, left-aligned; bitCount of its bits are
 *          |&lt;-------- bitCount --------&gt;|               the stream's next bits (56..63 after a refill)
 *   input: ... consumed ... [pos .............. end)      pos: the next byte not yet in the register
 * </pre>
 *
 * <p>Hot loops keep the register, its count and the input position in locals (registers) and refill them inline
 * from the next eight bytes when none of them is 0xFF ({@link #ONES}, {@link #HIGHS}); only for the rare cases do
 * they store the three into {@link #bits}, {@link #bitCount} and {@link #pos}, call a method here and load them
 * back. That split is deliberate: one hot method per loop, each with its own copy of the inline refill, measured
 * 10-20% faster than a refill shared through fields.
 *
 * <p>A base class rather than an object the decoders hold, on purpose: they reach the state through {@code this},
 * as the hot loops did before the reader was split out. Held as a separate object (and the MCU layout too, both in
 * locals), the split measured 2-6% slower at both scales, side by side on the 12 MP photos.
 *
 * <p>Past a marker or the end of the input the reader feeds zeros and counts them ({@link #fakeBits}): a scan that
 * consumed any of those zeros is truncated ({@link #truncated}).
 *
 * <p>Not thread safe: the base of one {@link ReducedJpegScanDecoder}. Allocates nothing; reads only inside
 * {@code [start, end)} of the last {@link #start}.
 */
abstract class JpegBitReader {
    /** 0x01 in every byte: with {@link #HIGHS}, the "has a zero byte" test applied to the word's complement. */
    static final long ONES = 0x0101_0101_0101_0101L;
    /** 0x80 in every byte. */
    static final long HIGHS = 0x8080_8080_8080_8080L;

    /** The stream's next bits, first in bit 63, zeros below {@link #bitCount}. */
    long bits;
    /** How many bits of {@link #bits} are the stream's (or zeros fed past its data, counted in {@link #fakeBits}). */
    int bitCount;
    /** The next input byte not yet in the register. */
    long pos;
    /** One past the last input byte. */
    long end;
    /** Zero bits fed past a marker or the end of the input since the last {@link #start} or restart. */
    int fakeBits;
    /** The input, for errors. */
    String label;

    /**
     * Starts reading a scan: an empty register at {@code start}.
     *
     * @param start first entropy-coded byte
     * @param limit one past the last input byte
     * @param input the input, for errors
     */
    final void start(final long start, final long limit, final String input) {
        label = input;
        pos = start;
        end = limit;
        emptyRegister();
    }

    private void emptyRegister() {
        bits = 0;
        bitCount = 0;
        fakeBits = 0;
    }

    /** Byte-wise refill to 56..63 bits: unstuffs 0xFF00, feeds zeros at a marker or the end of the input. */
    final void refillSlow() {
        long b = bits;
        int n = bitCount;
        while (n < 56) {
            int v = 0;
            if (pos < end) {
                v = UnsafeApi.getByte(pos) & 0xFF;
                if (v != 0xFF) {
                    pos++;
                } else if (pos + 1 < end && UnsafeApi.getByte(pos + 1) == 0) {
                    pos += 2; // stuffed 0xFF
                } else {
                    v = 0; // a marker: stay on it and feed zeros
                    fakeBits += 8;
                }
            } else {
                fakeBits += 8;
            }
            b |= (long) v << (56 - n);
            n += 8;
        }
        bits = b;
        bitCount = n;
    }

    /**
     * Whether the decoder consumed zeros the reader made up past a marker or the end of the input.
     *
     * @param count the register's bit count as the decoder holds it
     * @return true when the data ran out before the decoder's last code
     */
    final boolean truncated(final int count) {
        return count < fakeBits;
    }

    /**
     * Ends a restart interval: no bits borrowed past it, then RSTn with the expected n, then an empty register just
     * past the marker. The caller resets its DC predictors.
     *
     * @param expected 0..7, the restart marker's number
     * @throws MediaException when the interval's data ran out or the next marker is not the expected RSTn
     */
    final void restart(final int expected) {
        checkNotTruncated();
        final long marker = nextMarker(pos);
        final int m = marker + 1 < end ? UnsafeApi.getByte(marker + 1) & 0xFF : -1;
        if (m != 0xD0 + expected) {
            throw new MediaException(label, "JPEG restart marker RST" + expected + " expected, found "
                    + (m < 0 ? "end of input" : String.format("0xFF%02X", m)));
        }
        pos = marker + 2;
        emptyRegister();
    }

    /**
     * Checks the scan has not run out of data.
     *
     * @throws MediaException when the decoder consumed bits past the data ({@link #truncated})
     */
    final void checkNotTruncated() {
        if (truncated(bitCount)) {
            throw new MediaException(label, "JPEG entropy-coded data truncated: the scan ends before its last MCU");
        }
    }

    /**
     * Finds the marker that follows the entropy-coded data.
     *
     * @param from where to start looking
     * @return the address of the next marker (0xFF followed by neither 0x00 nor 0xFF) at or after {@code from},
     *         or the end of the input
     */
    final long nextMarker(final long from) {
        long q = from;
        while (q + 1 < end) {
            if ((UnsafeApi.getByte(q) & 0xFF) == 0xFF) {
                final int next = UnsafeApi.getByte(q + 1) & 0xFF;
                if (next != 0 && next != 0xFF) {
                    return q;
                }
            }
            q++;
        }
        return end;
    }

    /**
     * The error for corrupt entropy-coded data.
     *
     * @param what what was found
     * @param mx the MCU's column
     * @param my the MCU's row
     * @return the exception to throw
     */
    final MediaException corrupt(final String what, final int mx, final int my) {
        return new MediaException(label, "JPEG entropy-coded data corrupt: " + what + " in MCU (" + mx + ", " + my
                + ")");
    }
}
