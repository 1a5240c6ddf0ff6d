package org.spdl4j.media;

import org.agrona.UnsafeApi;

/**
 * One JPEG Huffman table (a DHT entry) expanded for {@link ReducedJpegScanDecoder}, which needs the DC difference of
 * every block and only the <em>lengths</em> of the AC coefficients it skips.
 *
 * <p>Two structures, both built once per distinct table (a JPEG carrying the same table bytes as the last one reuses
 * them, which is the common case: one encoder, the same tables in every file):
 * <ul>
 *   <li>the canonical code description of ITU T.81 F.2.2.3 ({@code maxCode}, {@code minCode}, {@code firstIndex}),
 *       for the rare code that the fast table cannot resolve;</li>
 *   <li>a fast table indexed by the next bits of the stream, for the table's class:
 *       <pre>
 *   DC, int[2^12]:   [ diff (signed, 24 bits) | bits (8) ]         one code + its magnitude bits, the extended
 *                    0 = no whole symbol in the window               difference, and the bits they take
 *   AC, char[2^14]:  [ 0000 | eob (1) | advance (7) | bits (4) ]   as many whole (code + magnitude) symbols as fit:
 *                                                                    bits consumed, coefficient positions advanced
 *                                                                    (+64 when an end-of-block closes the run)
 *                    advance 127 = no whole symbol in the window
 *   AC, char[2^12]:  [ advance (7) | size (4) | code length (5) ]  one code (its magnitude bits may lie past the
 *                    0 = no whole code in the window                 window), for the low-frequency coefficients
 *                                                                    whose values 1/4 scale needs ({@code acCode});
 *                                                                    advance: run + 1 (ZRL 16), 64 for EOB
 *       </pre></li>
 * </ul>
 * A 14-bit window holds two to four AC symbols of a photo at quality 90, so a block costs one DC lookup and a few AC
 * lookups instead of one per coefficient. 14 bits measured fastest (12: 5-12% slower, 16: slower again: the table
 * leaves the L2-friendly size); char entries keep an AC table at 32 KiB, and its one-code table adds 8 KiB.
 *
 * <p>Not thread safe: owned by one decoder. {@link #define} allocates nothing.
 */
final class JpegHuffmanTable {
    /** Index width of a DC table's fast table: 4,096 ints (16 KiB). */
    static final int DC_FAST_BITS = 12;
    /** Index width of an AC table's fast table: 16,384 chars (32 KiB). */
    static final int AC_FAST_BITS = 14;
    /** Index width of an AC table's one-code table: 4,096 chars (8 KiB). */
    static final int AC_CODE_BITS = 12;
    /** An AC fast entry that no position can use: advance 127 (k + 127 > 64 always); decode one symbol instead. */
    static final char AC_NO_SYMBOL = 127 << 4;
    /** Longest code T.81 allows. */
    static final int MAX_CODE_LENGTH = 16;
    /** Largest DC magnitude category for 8-bit samples. */
    static final int MAX_DC_CATEGORY = 11;
    private static final int SPEC_BYTES = MAX_CODE_LENGTH + 256;

    /** DC tables only (null for AC). */
    final int[] dcFast;
    /** AC tables only (null for DC). */
    final char[] acFast;
    /** AC tables only (null for DC): one code per entry, see the class comment and {@link #codeEntry}. */
    final char[] acCode;
    private final boolean ac;
    private final int[] maxCode = new int[MAX_CODE_LENGTH + 1];
    private final int[] minCode = new int[MAX_CODE_LENGTH + 1];
    private final int[] firstIndex = new int[MAX_CODE_LENGTH + 1];
    private final int[] values = new int[256];
    /** The DHT bytes (16 counts, then the values) the tables were built from; -1 length = never built. */
    private final byte[] spec = new byte[SPEC_BYTES];
    private int specLength = -1;

    /**
     * Creates an empty table of one class (a JPEG's DC and AC table slots are separate).
     *
     * @param ac true for an AC table, false for DC
     */
    JpegHuffmanTable(final boolean ac) {
        this.ac = ac;
        this.dcFast = ac ? null : new int[1 << DC_FAST_BITS];
        this.acFast = ac ? new char[1 << AC_FAST_BITS] : null;
        this.acCode = ac ? new char[1 << AC_CODE_BITS] : null;
    }

    /**
     * Defines the table from a DHT entry: 16 code-length counts, then the symbol values.
     *
     * @param address the first count
     * @param available bytes left in the DHT segment from {@code address}
     * @param label the input, for errors
     * @return the bytes the entry occupies (16 + number of values)
     * @throws MediaException when the entry is truncated or its code lengths overflow the code space
     */
    int define(final long address, final long available, final String label) {
        if (available < MAX_CODE_LENGTH) {
            throw new MediaException(label, "JPEG DHT segment truncated");
        }
        int count = 0;
        for (int i = 0; i < MAX_CODE_LENGTH; i++) {
            count += UnsafeApi.getByte(address + i) & 0xFF;
        }
        final int length = MAX_CODE_LENGTH + count;
        if (count > 256 || length > available) {
            throw new MediaException(label, "JPEG DHT segment corrupt: " + count + " codes in "
                    + (available - MAX_CODE_LENGTH) + " bytes");
        }
        if (sameSpec(address, length)) {
            return length; // the same table as before: keep what was built
        }
        for (int i = 0; i < length; i++) {
            spec[i] = UnsafeApi.getByte(address + i);
        }
        specLength = -1; // not valid until the build below completes
        buildCanonical(label);
        if (ac) {
            buildAcFast();
            buildAcCode();
        } else {
            buildDcFast();
        }
        specLength = length;
        return length;
    }

    private boolean sameSpec(final long address, final int length) {
        if (length != specLength) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (spec[i] != UnsafeApi.getByte(address + i)) {
                return false;
            }
        }
        return true;
    }

    /** T.81 Annex C and F.2.2.3: canonical codes, assigned in order of length. */
    private void buildCanonical(final String label) {
        int code = 0;
        int k = 0;
        for (int len = 1; len <= MAX_CODE_LENGTH; len++) {
            final int n = spec[len - 1] & 0xFF;
            firstIndex[len] = k;
            minCode[len] = code;
            for (int i = 0; i < n; i++) {
                values[k] = spec[MAX_CODE_LENGTH + k] & 0xFF;
                k++;
            }
            code += n;
            if (code > (1 << len)) {
                throw new MediaException(label, "JPEG Huffman table corrupt: more codes of length " + len
                        + " than the code space holds");
            }
            maxCode[len] = n == 0 ? -1 : code - 1;
            code <<= 1;
        }
    }

    /**
     * Decodes one symbol from left-aligned stream bits.
     *
     * @param bits the next 64 bits of the stream, first bit in the sign position
     * @return {@code length << 8 | symbol}, or -1 when no code of up to 16 bits matches (corrupt data)
     */
    int decode(final long bits) {
        for (int len = 1; len <= MAX_CODE_LENGTH; len++) {
            final int code = (int) (bits >>> (64 - len));
            if (code <= maxCode[len]) {
                return len << 8 | values[firstIndex[len] + code - minCode[len]];
            }
        }
        return -1;
    }

    private void buildDcFast() {
        for (int v = 0; v < dcFast.length; v++) {
            final int sym = decode((long) v << (64 - DC_FAST_BITS));
            final int codeLength = sym >> 8;
            final int category = sym & 0xFF;
            if (sym < 0 || category > MAX_DC_CATEGORY || codeLength + category > DC_FAST_BITS) {
                dcFast[v] = 0;
                continue;
            }
            final int magnitude = (v >>> (DC_FAST_BITS - codeLength - category)) & ((1 << category) - 1);
            dcFast[v] = extend(magnitude, category) << 8 | (codeLength + category);
        }
    }

    private void buildAcFast() {
        for (int v = 0; v < acFast.length; v++) {
            int used = 0;
            int advance = 0;
            boolean endOfBlock = false;
            while (advance < 64) {
                final int sym = decode((long) v << (64 - AC_FAST_BITS + used));
                final int codeLength = sym >> 8;
                final int size = sym & 15;
                if (sym < 0 || used + codeLength + size > AC_FAST_BITS) {
                    break; // the next symbol is not wholly inside the window (zeros past it are not stream bits)
                }
                used += codeLength + size;
                if ((sym & 0xFF) == 0) {
                    endOfBlock = true;
                    break;
                }
                // run zeros, then one coefficient; size 0 has none (ZRL: 16 zeros; runs 1..14 of size 0, undefined
                // in T.81, are runs of zeros to FFmpeg)
                advance += ((sym >> 4) & 15) + 1;
            }
            // advance < 64 before an end-of-block, so advance + 64 <= 127; a run past 64 is never usable.
            acFast[v] = used == 0 || advance > 64 ? AC_NO_SYMBOL
                    : (char) ((endOfBlock ? 1 << 11 | (advance + 64) << 4 : advance << 4) | used);
        }
    }

    private void buildAcCode() {
        for (int v = 0; v < acCode.length; v++) {
            final int sym = decode((long) v << (64 - AC_CODE_BITS));
            acCode[v] = sym < 0 || (sym >> 8) > AC_CODE_BITS ? 0 : (char) codeEntry(sym);
        }
    }

    /**
     * An AC symbol as an {@link #acCode} entry: {@code advance << 9 | size << 5 | codeLength}, where advance is the
     * run + 1 (16 for ZRL; a size-0 symbol is a run of zeros without a coefficient, as FFmpeg reads it), 64 for an
     * end-of-block (symbol 0), which closes any block.
     *
     * @param sym {@code length << 8 | symbol}, as {@link #decode} returns
     * @return the entry (never 0)
     */
    static int codeEntry(final int sym) {
        final int size = sym & 15;
        final int advance = (sym & 0xFF) == 0 ? 64 : ((sym >> 4) & 15) + 1;
        return advance << 9 | size << 5 | sym >> 8;
    }

    /**
     * T.81 F.2.2.1 EXTEND: a category's magnitude bits to a signed value.
     *
     * @param magnitude the {@code category} bits read after the code
     * @param category 0..15 (at most 11 for a DC difference)
     * @return the signed difference
     */
    static int extend(final int magnitude, final int category) {
        return category == 0 ? 0 : magnitude < (1 << (category - 1)) ? magnitude - (1 << category) + 1 : magnitude;
    }
}
