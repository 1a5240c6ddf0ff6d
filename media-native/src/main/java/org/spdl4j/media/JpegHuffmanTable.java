package org.spdl4j.media;

import org.agrona.UnsafeApi;

/**
 * One JPEG Huffman table (a DHT entry) expanded for {@link JpegDcScanDecoder}, which needs the DC difference of every
 * block and only the <em>lengths</em> of the AC coefficients it skips.
 *
 * <p>Two structures, both built once per distinct table (a JPEG carrying the same table bytes as the last one reuses
 * them, which is the common case: one encoder, the same tables in every file):
 * <ul>
 *   <li>the canonical code description of ITU T.81 F.2.2.3 ({@code maxCode}, {@code minCode}, {@code firstIndex}),
 *       for the rare code that the fast table cannot resolve;</li>
 *   <li>{@link #fast}, indexed by the next {@value #FAST_BITS} bits of the stream:
 *       <pre>
 *   DC table entry:  [ diff (signed, 24 bits) | bits (8) ]   code + its magnitude bits, and the extended difference
 *   AC table entry:  [ limit (8) | advance (8) | bits (8) ]  as many whole (code + magnitude) symbols as fit:
 *                    bits consumed, coefficient positions advanced (+64 when an end-of-block closes the run),
 *                    and the largest position the run may start at + advance (63 + 64 with end-of-block, else 64)
 *   0 in either:     no whole symbol in the window: decode one symbol the slow way
 *       </pre></li>
 * </ul>
 * With the coarse grain of camera photos a 12-bit window holds two to four AC symbols, so a block costs one DC
 * lookup and a handful of AC lookups instead of one per coefficient.
 *
 * <p>Not thread safe: owned by one decoder. {@link #define} allocates nothing.
 */
final class JpegHuffmanTable {
    /** Width of the fast table's index: 4,096 ints (16 KiB), so two tables in use stay in the L1 cache. */
    static final int FAST_BITS = 12;
    /** Longest code T.81 allows. */
    static final int MAX_CODE_LENGTH = 16;
    /** Largest DC magnitude category for 8-bit samples. */
    static final int MAX_DC_CATEGORY = 11;
    private static final int SPEC_BYTES = MAX_CODE_LENGTH + 256;

    final int[] fast = new int[1 << FAST_BITS];
    private final int[] maxCode = new int[MAX_CODE_LENGTH + 1];
    private final int[] minCode = new int[MAX_CODE_LENGTH + 1];
    private final int[] firstIndex = new int[MAX_CODE_LENGTH + 1];
    private final int[] values = new int[256];
    /** The DHT bytes (16 counts, then the values) the tables were built from; -1 length = never built. */
    private final byte[] spec = new byte[SPEC_BYTES];
    private int specLength = -1;
    private boolean acClass;

    /**
     * Defines the table from a DHT entry: 16 code-length counts, then the symbol values.
     *
     * @param address the first count
     * @param available bytes left in the DHT segment from {@code address}
     * @param ac true for an AC table, false for DC
     * @param label the input, for errors
     * @return the bytes the entry occupies (16 + number of values)
     * @throws MediaException when the entry is truncated or its code lengths overflow the code space
     */
    int define(final long address, final long available, final boolean ac, final String label) {
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
        if (ac == acClass && sameSpec(address, length)) {
            return length; // the same table as before: keep what was built
        }
        for (int i = 0; i < length; i++) {
            spec[i] = UnsafeApi.getByte(address + i);
        }
        specLength = -1; // not valid until the build below completes
        buildCanonical(label);
        if (ac) {
            buildAcFast();
        } else {
            buildDcFast();
        }
        acClass = ac;
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
        for (int v = 0; v < fast.length; v++) {
            final int sym = decode((long) v << (64 - FAST_BITS));
            final int codeLength = sym >> 8;
            final int category = sym & 0xFF;
            if (sym < 0 || category > MAX_DC_CATEGORY || codeLength + category > FAST_BITS) {
                fast[v] = 0;
                continue;
            }
            final int magnitude = (v >>> (FAST_BITS - codeLength - category)) & ((1 << category) - 1);
            fast[v] = extend(magnitude, category) << 8 | (codeLength + category);
        }
    }

    private void buildAcFast() {
        for (int v = 0; v < fast.length; v++) {
            int used = 0;
            int advance = 0;
            boolean endOfBlock = false;
            while (advance < 64) {
                final int sym = decode((long) v << (64 - FAST_BITS + used));
                final int codeLength = sym >> 8;
                final int size = sym & 15;
                if (sym < 0 || used + codeLength + size > FAST_BITS) {
                    break; // the next symbol is not wholly inside the window (zeros past it are not stream bits)
                }
                used += codeLength + size;
                final int run = (sym >> 4) & 15;
                if (size == 0 && run != 15) {
                    endOfBlock = true;
                    break;
                }
                advance += size == 0 ? 16 : run + 1; // ZRL skips 16 zeros; otherwise run zeros + one coefficient
            }
            fast[v] = used == 0 ? 0 : endOfBlock
                    ? (63 + 64) << 16 | (advance + 64) << 8 | used
                    : 64 << 16 | Math.min(advance, 255) << 8 | used;
        }
    }

    /**
     * T.81 F.2.2.1 EXTEND: a category's magnitude bits to a signed value.
     *
     * @param magnitude the {@code category} bits read after the code
     * @param category 0..11
     * @return the signed difference
     */
    static int extend(final int magnitude, final int category) {
        return category == 0 ? 0 : magnitude < (1 << (category - 1)) ? magnitude - (1 << category) + 1 : magnitude;
    }
}
