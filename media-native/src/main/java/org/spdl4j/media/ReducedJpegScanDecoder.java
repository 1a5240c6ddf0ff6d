package org.spdl4j.media;

import org.agrona.UnsafeApi;

/**
 * Entropy-decodes one baseline JPEG scan keeping only the coefficients a reduced-scale inverse DCT uses, bit for bit
 * what FFmpeg's mjpeg decoder gives at that scale:
 * <ul>
 *   <li>1/8 ({@code quarter = false}): one pixel per 8x8 block from its DC coefficient,
 *       {@code clamp((dc * q0 + 1024 + 4) >> 3)} (FFmpeg's lowres 3; libjpeg's {@code scale_denom = 8});</li>
 *   <li>1/4 ({@code quarter = true}): 2x2 pixels per block from the four lowest frequencies, zig-zag positions 0, 1,
 *       2 and 4 (natural 0, 1, 8, 9, decoded by {@link JpegQuarterScaleReader}), through FFmpeg's lowres-2
 *       transform: with {@code s = (int16) (F00 + 4)}, {@code x0 = s + F01, x1 = s - F01, y0 = F10 + F11,
 *       y1 = F10 - F11}, the pixels are {@code clamp((x0 + y0) >> 3), clamp((x1 + y1) >> 3)} over
 *       {@code clamp((x0 - y0) >> 3), clamp((x1 - y1) >> 3)}.</li>
 * </ul>
 * The other AC coefficients are Huffman-decoded only to find where the next block starts, several at a time through
 * {@link JpegHuffmanTable#acFast} (two lookups per refill); none is dequantized or stored.
 *
 * <p>The hot loop is one method on purpose, with its own inline refills for the DC and the AC codes (see
 * {@link JpegBitReader}): the bit register, count and input position live in locals (registers); the rare paths
 * (byte-wise refill, restart) and the 1/4-scale codes run on the reader's fields, synchronised around the call.
 *
 * <p>Not thread safe: owned by one {@link ReducedJpegDecoder}, which fills its {@link #layout} per scan. Allocates
 * nothing. Reads only inside {@code [start, end)}; writes only inside the planes the layout points at (sized by the
 * caller for the frame's MCUs).
 */
final class ReducedJpegScanDecoder extends JpegQuarterScaleReader {
    private static final int DC_SHIFT = 64 - JpegHuffmanTable.DC_FAST_BITS;
    private static final int AC_SHIFT = 64 - JpegHuffmanTable.AC_FAST_BITS;
    /** 128 x 8: the sample level shift in the DC domain; every predictor starts there (and after each restart). */
    private static final int LEVEL_SHIFT = 1024;

    // The layout's arrays, one load from this away (see JpegBitReader on base registers).
    private final int[] blockComponent = layout.component;
    private final JpegHuffmanTable[] blockDc = layout.dc;
    private final JpegHuffmanTable[] blockAc = layout.ac;
    private final long[] blockBase = layout.base;
    private final long[] blockRowStep = layout.rowStep;
    private final int[] blockColumnStep = layout.columnStep;
    private final int[] blockQuant = layout.quant0;
    private final long[] blockStride = layout.stride;
    private final int[] predictor = new int[4];
    /** The layout's block count for this scan, a field as the arrays are (as a local, 1/8 ran ~4% slower). */
    private int blocksPerMcu;

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
        start(start, limit, label);
        resetPredictors();
        blocksPerMcu = layout.blocks;
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
                        resetPredictors();
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
                        bits = b; // the reader's fields carry the register into the 1/4 method and back
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
                        if ((sym & 0xFF) == 0) {
                            break; // end of block
                        }
                        // A run of zeros, then the coefficient; size 0 (ZRL: 16 zeros; T.81 leaves runs 1..14 with
                        // size 0 undefined, FFmpeg skips run + 1 zeros) has none, and may run past 63 as in FFmpeg.
                        k += run + 1;
                        if (k > 64 && size != 0) {
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

    private void resetPredictors() {
        for (int c = 0; c < predictor.length; c++) {
            predictor[c] = LEVEL_SHIFT;
        }
    }
}
