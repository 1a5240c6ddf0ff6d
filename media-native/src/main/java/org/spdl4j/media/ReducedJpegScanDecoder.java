package org.spdl4j.media;

import org.agrona.UnsafeApi;

/**
 * Entropy-decodes one baseline JPEG scan keeping only the coefficients a reduced-scale inverse DCT uses, bit for bit
 * what FFmpeg's mjpeg decoder gives at that scale:
 * <ul>
 *   <li>1/8 ({@code quarter = false}): one pixel per 8x8 block from its DC coefficient,
 *       {@code clamp((dc * q0 + 1024 + 4) >> 3)} (FFmpeg's lowres 3; libjpeg's {@code scale_denom = 8});</li>
 *   <li>1/4 ({@code quarter = true}): 2x2 pixels per block from the four lowest frequencies, zig-zag positions 0, 1,
 *       2 and 4 (natural 0, 1, 8, 9), through FFmpeg's lowres-2 transform: with {@code s = (int16) (F00 + 4)},
 *       {@code x0 = s + F01, x1 = s - F01, y0 = F10 + F11, y1 = F10 - F11}, the pixels are
 *       {@code clamp((x0 + y0) >> 3), clamp((x1 + y1) >> 3)} over
 *       {@code clamp((x0 - y0) >> 3), clamp((x1 - y1) >> 3)}.</li>
 * </ul>
 * The other AC coefficients are Huffman-decoded only to find where the next block starts, several at a time through
 * {@link JpegHuffmanTable#acFast} (two lookups per refill); none is dequantized or stored. At 1/4 the codes up to
 * position 4 are decoded one at a time with their values ({@link JpegHuffmanTable#acCode}: one code per lookup, its
 * magnitude bits read from the register without a branch), then skipped the same way. Dequantized values wrap to int16 as FFmpeg's coefficient array does.
 *
 * <p>Bit reader: a 64-bit register topped up to 56..63 bits before each lookup, branch-free from the next eight bytes
 * when none of them is 0xFF, byte by byte otherwise (removing the 0xFF00 stuffing, stopping at markers). Past a marker
 * or the end of the input it feeds zeros and counts them; a scan that consumed any of those zeros is truncated (checked
 * at each restart, each MCU row and the end of the scan).
 *
 * <p>The hot loop is one method on purpose: the bit register, count and input position live in locals (registers);
 * the rare paths (byte-wise refill, restart) run on the fields, synchronised around the call.
 *
 * <p>Not thread safe: owned by one {@link ReducedJpegDecoder}. Allocates nothing. Reads only inside
 * {@code [start, end)}; writes only inside the planes it is given (sized by the caller for the frame's MCUs).
 */
final class ReducedJpegScanDecoder {
    /** Blocks in one MCU at most (T.81 B.2.3). */
    static final int MAX_BLOCKS_PER_MCU = 10;
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;
    private static final int DC_SHIFT = 64 - JpegHuffmanTable.DC_FAST_BITS;
    private static final int AC_SHIFT = 64 - JpegHuffmanTable.AC_FAST_BITS;
    private static final int AC_CODE_SHIFT = 64 - JpegHuffmanTable.AC_CODE_BITS;
    /** Last zig-zag position the 1/4-scale transform reads (natural position 9). */
    private static final int QUARTER_LAST = 4;
    /** 128 x 8: the sample level shift in the DC domain; every predictor starts there (and after each restart). */
    private static final int LEVEL_SHIFT = 1024;

    // Per-block description of one MCU (set up by the caller for each scan).
    final int[] blockComponent = new int[MAX_BLOCKS_PER_MCU];
    final JpegHuffmanTable[] blockDc = new JpegHuffmanTable[MAX_BLOCKS_PER_MCU];
    final JpegHuffmanTable[] blockAc = new JpegHuffmanTable[MAX_BLOCKS_PER_MCU];
    /** Address of the block's pixel in MCU (0, 0). */
    final long[] blockBase = new long[MAX_BLOCKS_PER_MCU];
    /** Bytes from one MCU row to the next, for the block's plane. */
    final long[] blockRowStep = new long[MAX_BLOCKS_PER_MCU];
    /** Bytes from one MCU to the next in a row: the component's horizontal blocks per MCU. */
    final int[] blockColumnStep = new int[MAX_BLOCKS_PER_MCU];
    /** DC quantizer of the block's component. */
    final int[] blockQuant = new int[MAX_BLOCKS_PER_MCU];
    /** 1/4 scale only: quantizers of zig-zag positions 1, 2 and 4 (natural 1, 8, 9) of the block's component. */
    final int[] blockQuant1 = new int[MAX_BLOCKS_PER_MCU];
    final int[] blockQuant2 = new int[MAX_BLOCKS_PER_MCU];
    final int[] blockQuant4 = new int[MAX_BLOCKS_PER_MCU];
    /** 1/4 scale only: bytes from a block's first pixel row to its second (the plane's stride). */
    final long[] blockStride = new long[MAX_BLOCKS_PER_MCU];
    int blocksPerMcu;

    private final int[] predictor = new int[4];
    /** 1/4 scale: the current block's dequantized coefficients at natural positions 1, 8 and 9 (int16 values). */
    private int f01;
    private int f10;
    private int f11;
    private long bits;
    private int bitCount;
    private long pos;
    private long end;
    private int fakeBits;
    private String label;

    /**
     * Decodes the scan whose entropy-coded data starts at {@code start}.
     *
     * @param start first byte after the SOS segment
     * @param limit one past the last input byte
     * @param mcusX MCUs per row
     * @param mcusY MCU rows
     * @param restartInterval MCUs per restart interval, 0 for none
     * @param quarter true for 2x2 pixels per block (1/4 scale), false for one (1/8)
     * @param label the input, for errors
     * @return the address of the marker that ends the scan (or {@code limit})
     * @throws MediaException on corrupt or truncated entropy-coded data
     */
    long decode(final long start, final long limit, final int mcusX, final int mcusY, final int restartInterval,
                final boolean quarter, final String label) {
        this.label = label;
        pos = start;
        end = limit;
        resetBits();
        final long lastWord = limit - 8;
        int untilRestart = restartInterval;
        int nextRestart = 0;
        long b = 0;
        int n = 0;
        long p = pos;
        for (int my = 0; my < mcusY; my++) {
            for (int mx = 0; mx < mcusX; mx++) {
                if (restartInterval != 0) {
                    if (untilRestart == 0) {
                        pos = p;
                        bitCount = n;
                        restart(nextRestart);
                        b = 0;
                        n = 0;
                        p = pos;
                        nextRestart = (nextRestart + 1) & 7;
                        untilRestart = restartInterval;
                    }
                    untilRestart--;
                }
                for (int i = 0; i < blocksPerMcu; i++) {
                    // Refill to >= 56 bits, enough for a DC code and its magnitude (at most 16 + 11). Fast path,
                    // without a data-dependent branch: OR in the next eight bytes (none may be 0xFF: no stuffing, no
                    // marker) and advance by the whole bytes that fit. The bits below the count are the stream's
                    // next bits (or zeros), so OR-ing the same bytes again later changes nothing.
                    long w;
                    if (p <= lastWord && (((w = Long.reverseBytes(UnsafeApi.getLong(p))) ^ -1L) - ONES & w
                            & HIGHS) == 0) { // "has a zero byte" on ~w: none of the eight bytes is 0xFF
                        b |= w >>> n;
                        p += (63 - n) >>> 3;
                        n |= 56;
                    } else {
                        bits = b;
                        bitCount = n;
                        pos = p;
                        refillSlow();
                        b = bits;
                        n = bitCount;
                        p = pos;
                    }
                    final JpegHuffmanTable dcTable = blockDc[i];
                    int diff;
                    final int dc = dcTable.dcFast[(int) (b >>> DC_SHIFT)];
                    if (dc != 0) {
                        final int used = dc & 0xFF;
                        b <<= used;
                        n -= used;
                        diff = dc >> 8;
                    } else {
                        final int sym = dcTable.decode(b);
                        final int category = sym & 0xFF;
                        if (sym < 0 || category > JpegHuffmanTable.MAX_DC_CATEGORY) {
                            throw corrupt(sym < 0 ? "invalid DC Huffman code" : "DC category " + category, mx, my);
                        }
                        final int codeLength = sym >> 8;
                        b <<= codeLength;
                        diff = category == 0 ? 0 : JpegHuffmanTable.extend((int) (b >>> (64 - category)), category);
                        b <<= category;
                        n -= codeLength + category;
                    }
                    int k = 1;
                    if (quarter) {
                        bits = b; // the rare-path fields carry the register into the 1/4 method and back
                        bitCount = n;
                        pos = p;
                        k = decodeLowFrequencies(i, mx, my);
                        b = bits;
                        n = bitCount;
                        p = pos;
                    }
                    final char[] ac = blockAc[i].acFast;
                    while (k < 64) {
                        if (p <= lastWord && (((w = Long.reverseBytes(UnsafeApi.getLong(p))) ^ -1L) - ONES & w
                                & HIGHS) == 0) {
                            b |= w >>> n;
                            p += (63 - n) >>> 3;
                            n |= 56;
                        } else {
                            bits = b;
                            bitCount = n;
                            pos = p;
                            refillSlow();
                            b = bits;
                            n = bitCount;
                            p = pos;
                        }
                        int e = ac[(int) (b >>> AC_SHIFT)];
                        int next = k + ((e >>> 4) & 127);
                        int eob = e >>> 11;
                        // Usable if the run stays inside the block: ends by 64, or by 63 + 64 when it ends with an
                        // end-of-block (its advance carries +64). AC_NO_SYMBOL's advance of 127 never passes.
                        if (next <= 64 + (eob << 6) - eob) {
                            int used = e & 15;
                            b <<= used;
                            n -= used;
                            k = next; // > 64 after an end-of-block: the loop ends
                            if (k >= 64) {
                                break;
                            }
                            // A second lookup on the same refill: >= 56 - 14 bits are left, enough for it and, if it
                            // fails, for the slow decode below (<= 31 bits).
                            e = ac[(int) (b >>> AC_SHIFT)];
                            next = k + ((e >>> 4) & 127);
                            eob = e >>> 11;
                            if (next <= 64 + (eob << 6) - eob) {
                                used = e & 15;
                                b <<= used;
                                n -= used;
                                k = next;
                                continue;
                            }
                        }
                        final int sym = blockAc[i].decode(b);
                        if (sym < 0) {
                            throw corrupt("invalid AC Huffman code", mx, my);
                        }
                        final int size = sym & 15;
                        final int run = (sym >> 4) & 15;
                        final int used = (sym >> 8) + size; // <= 16 + 15 < 32 bits held
                        b <<= used;
                        n -= used;
                        if (size == 0 && run != 15) {
                            break; // end of block
                        }
                        k += size == 0 ? 16 : run + 1;
                        if (k > 64) {
                            throw corrupt("AC coefficients past position 63", mx, my);
                        }
                    }
                    final int c = blockComponent[i];
                    // As FFmpeg's mjpeg decoder: the predictor is the dequantized DC (with the 1024 level shift),
                    // clipped to int16 at every block; the 1x1 inverse DCT is (dc + 4) >> 3, clipped to a byte.
                    final int level = Math.clamp(predictor[c] + (long) diff * blockQuant[i], Short.MIN_VALUE,
                            Short.MAX_VALUE);
                    predictor[c] = level;
                    final long at = blockBase[i] + my * blockRowStep[i] + (long) mx * blockColumnStep[i];
                    if (quarter) {
                        // FFmpeg's lowres-2 transform on its int16 block: the +4 wraps in int16, nothing else can.
                        final int s = (short) (level + 4);
                        final int x0 = s + f01;
                        final int x1 = s - f01;
                        final int y0 = f10 + f11;
                        final int y1 = f10 - f11;
                        final long below = at + blockStride[i];
                        UnsafeApi.putByte(at, (byte) Math.clamp((x0 + y0) >> 3, 0, 255));
                        UnsafeApi.putByte(at + 1, (byte) Math.clamp((x1 + y1) >> 3, 0, 255));
                        UnsafeApi.putByte(below, (byte) Math.clamp((x0 - y0) >> 3, 0, 255));
                        UnsafeApi.putByte(below + 1, (byte) Math.clamp((x1 - y1) >> 3, 0, 255));
                    } else {
                        UnsafeApi.putByte(at, (byte) Math.clamp((level + 4) >> 3, 0, 255));
                    }
                }
            }
            if (n < fakeBits) {
                // Zeros past the data decode as valid codes: stop a truncated image at the row, not at the end.
                throw new MediaException(label, "JPEG entropy-coded data truncated at MCU row " + my + " of "
                        + mcusY);
            }
        }
        pos = p;
        bitCount = n;
        checkNotTruncated();
        return nextMarker(pos);
    }

    /**
     * 1/4 scale: decodes a block's AC codes up to zig-zag position 4 with their values, from the register in the
     * fields, and keeps the dequantized coefficients at positions 1, 2 and 4 in {@link #f01}, {@link #f10} and
     * {@link #f11}. Out of the hot loop on purpose: inline, it slowed both paths once both had run (12 MP photo,
     * 1/8: 7.7 -> 9.5 ms; 1/4: 14.9 -> 16.4 ms); the register goes through the fields as for the slow refill.
     *
     * @return the next zig-zag position (past 63 when the block ended)
     */
    private int decodeLowFrequencies(final int i, final int mx, final int my) {
        final long lastWord = end - 8;
        long b = bits;
        int n = bitCount;
        long p = pos;
        long w;
        f01 = 0;
        f10 = 0;
        f11 = 0;
        int k = 1;
        final char[] codes = blockAc[i].acCode;
        while (k <= QUARTER_LAST) {
            if (p <= lastWord && (((w = Long.reverseBytes(UnsafeApi.getLong(p))) ^ -1L) - ONES & w
                    & HIGHS) == 0) {
                b |= w >>> n;
                p += (63 - n) >>> 3;
                n |= 56;
            } else {
                bits = b;
                bitCount = n;
                pos = p;
                refillSlow();
                b = bits;
                n = bitCount;
                p = pos;
            }
            int e = codes[(int) (b >>> AC_CODE_SHIFT)];
            if (e == 0) { // a code longer than the table's window (or none)
                final int sym = blockAc[i].decode(b);
                if (sym < 0) {
                    throw corrupt("invalid AC Huffman code", mx, my);
                }
                e = JpegHuffmanTable.codeEntry(sym);
            }
            final int codeLength = e & 31;
            final int size = (e >>> 5) & 15;
            b <<= codeLength;
            // EXTEND without a branch: the magnitude's first bit is 0 for a negative value, which is
            // then magnitude - (2^size - 1). Size 0 (ZRL, EOB) reads 0 bits and gives 0.
            final int magnitude = (int) ((b >>> 1) >>> (63 - size));
            final int negative = (int) (b >>> 63) ^ 1;
            final int value = magnitude - (negative << size) + negative;
            b <<= size;
            n -= codeLength + size; // <= 16 + 15 < 56 bits held
            k += e >>> 9; // the coefficient (if any) sits at k - 1; past 63 after an end-of-block
            switch (k - 1) {
                case 1 -> f01 = (short) (value * blockQuant1[i]); // int16 as FFmpeg's block
                case 2 -> f10 = (short) (value * blockQuant2[i]);
                case 4 -> f11 = (short) (value * blockQuant4[i]);
                default -> { } // position 3 (natural 16), a zero run, or the end of the block
            }
        }
        bits = b;
        bitCount = n;
        pos = p;
        return k;
    }

    private void resetBits() {
        bits = 0;
        bitCount = 0;
        fakeBits = 0;
        for (int c = 0; c < predictor.length; c++) {
            predictor[c] = LEVEL_SHIFT;
        }
    }

    /** Byte-wise refill to 56..63 bits: unstuffs 0xFF00, feeds zeros at a marker or the end of the input. */
    private void refillSlow() {
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

    private void checkNotTruncated() {
        if (bitCount < fakeBits) {
            throw new MediaException(label, "JPEG entropy-coded data truncated: the scan ends before its last MCU");
        }
    }

    /** Ends a restart interval: no bits borrowed past it, then RSTn with the expected n, then fresh state. */
    private void restart(final int expected) {
        checkNotTruncated();
        final long marker = nextMarker(pos);
        final int m = marker + 1 < end ? UnsafeApi.getByte(marker + 1) & 0xFF : -1;
        if (m != 0xD0 + expected) {
            throw new MediaException(label, "JPEG restart marker RST" + expected + " expected, found "
                    + (m < 0 ? "end of input" : String.format("0xFF%02X", m)));
        }
        pos = marker + 2;
        resetBits();
    }

    /** The next marker (0xFF followed by neither 0x00 nor 0xFF) at or after {@code from}, or the end. */
    private long nextMarker(final long from) {
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

    private MediaException corrupt(final String what, final int mx, final int my) {
        return new MediaException(label, "JPEG entropy-coded data corrupt: " + what + " in MCU (" + mx + ", " + my
                + ")");
    }
}
