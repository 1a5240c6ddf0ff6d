package org.spdl4j.media;

import org.agrona.UnsafeApi;

/**
 * A {@link JpegBitReader} that also decodes what only 1/4 scale needs of a block: its AC codes up to zig-zag position
 * 4 with their values, dequantized at positions 1, 2 and 4 (natural 1, 8, 9) into {@link #f01}, {@link #f10} and
 * {@link #f11} for FFmpeg's lowres-2 transform (see {@link ReducedJpegScanDecoder}). Dequantized values wrap to
 * int16 as FFmpeg's coefficient array does.
 *
 * <p>Codes are decoded one per lookup in {@link JpegHuffmanTable#acCode}, the magnitude bits read from the register
 * without a branch. {@link #decodeLowFrequencies} has its own inline refill and runs out of the scan decoder's hot
 * loop on purpose: inline there, it slowed both scales once both had run (12 MP photo, 1/8: 7.7 -> 9.5 ms; 1/4:
 * 14.9 -> 16.4 ms). The register goes in and out through the reader's fields, as for its slow refill. A lookup of up
 * to two whole symbols with their values (12-bit window, {@code long[4096]} per AC table) was tried in front of the
 * one-code lookup and rejected: bit-exact, but 1/4 scale on the dense 12 MP photo went from 45-46 to 40-42 img/s
 * (side by side, {@code ImageDecodeBenchmark.spdl4jQuarter}) with no gain on the lighter one.
 *
 * <p>Not thread safe: the base of one {@link ReducedJpegScanDecoder}. Allocates nothing after construction.
 */
abstract class JpegQuarterScaleReader extends JpegBitReader {
    private static final int AC_CODE_SHIFT = 64 - JpegHuffmanTable.AC_CODE_BITS;
    /** Last zig-zag position the 1/4-scale transform reads (natural position 9). */
    private static final int LAST = 4;

    /** The blocks of one MCU of the next scan: set up by the owner of the scan decoder before each scan. */
    final JpegMcuLayout layout = new JpegMcuLayout();
    // The layout's arrays, one load from this away as in the hot loop (see JpegBitReader on base registers).
    private final JpegHuffmanTable[] blockAc = layout.ac;
    private final int[] blockQuant1 = layout.quant1;
    private final int[] blockQuant2 = layout.quant2;
    private final int[] blockQuant4 = layout.quant4;
    /** The last block's dequantized coefficients at natural positions 1, 8 and 9 (int16 values). */
    int f01;
    int f10;
    int f11;

    /**
     * Decodes block {@code i}'s AC codes up to zig-zag position 4 from the register in the reader's fields and keeps
     * the dequantized coefficients at positions 1, 2 and 4 in {@link #f01}, {@link #f10} and {@link #f11}.
     *
     * @param i the block's index in the MCU layout
     * @param mx the MCU's column, for errors
     * @param my the MCU's row, for errors
     * @return the next zig-zag position (past 63 when the block ended)
     * @throws MediaException on an invalid Huffman code
     */
    final int decodeLowFrequencies(final int i, final int mx, final int my) {
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
        while (k <= LAST) {
            // The inline refill (see JpegBitReader): eight bytes at once when none is 0xFF.
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
}
