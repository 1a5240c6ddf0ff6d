package org.spdl4j.offheap.tensor;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Layout of a NumPy {@code .npy} file, format version 1.0 (written) and 1.0 / 2.0 (read).
 *
 * <pre>
 *  offset 0  6 B   magic  \x93 N U M P Y
 *  offset 6  1 B   major version (1; 2 when read)
 *  offset 7  1 B   minor version (0)
 *  offset 8  2 B   HEADER_LEN, little-endian u16 (v2.0: 4 B u32, header at offset 12)
 *  offset 10 HEADER_LEN B  ASCII dict {'descr': '&lt;f4', 'fortran_order': False, 'shape': (2, 3), }
 *                  padded with spaces and ended by '\n' so the data starts at a multiple of 64
 *  offset 10 + HEADER_LEN: the elements, C order, in the byte order of 'descr'
 * </pre>
 * Stateless; thread-safe.
 */
public final class NpyFormat {
    /** The six magic bytes. */
    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** Offset of the major version byte. */
    public static final int VERSION_OFFSET = 6;
    /** Offset of the v1.0 header length (u16, little-endian). */
    public static final int HEADER_LEN_OFFSET = 8;
    /** Offset of the v1.0 header dict. */
    public static final int HEADER_OFFSET_V1 = 10;
    /** Offset of the v2.0 header dict (header length is a u32). */
    public static final int HEADER_OFFSET_V2 = 12;
    /** The data starts at a multiple of this. */
    public static final int DATA_ALIGNMENT = 64;

    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    private NpyFormat() {
    }

    /**
     * The complete v1.0 preamble (magic to padding) for an array.
     *
     * @param dtype element type
     * @param shape extents, C order
     * @return the bytes to write before the data; their length is a multiple of {@value #DATA_ALIGNMENT}
     */
    public static byte[] header(DType dtype, long[] shape) {
        final StringBuilder dict = new StringBuilder("{'descr': '").append(dtype.npyDescr())
                .append("', 'fortran_order': False, 'shape': (");
        for (int i = 0; i < shape.length; i++) {
            dict.append(shape[i]).append(shape.length == 1 ? "," : (i + 1 < shape.length ? ", " : ""));
        }
        dict.append("), }");
        final int unpadded = HEADER_OFFSET_V1 + dict.length() + 1;
        final int total = (unpadded + DATA_ALIGNMENT - 1) / DATA_ALIGNMENT * DATA_ALIGNMENT;
        dict.append(" ".repeat(total - unpadded)).append('\n');
        final int headerLen = total - HEADER_OFFSET_V1;
        if (headerLen > 0xFFFF) {
            throw new IllegalArgumentException("npy v1.0 header too long (" + headerLen + " B) for shape of rank "
                    + shape.length);
        }
        final byte[] out = new byte[total];
        System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
        out[VERSION_OFFSET] = 1;
        out[VERSION_OFFSET + 1] = 0;
        out[HEADER_LEN_OFFSET] = (byte) headerLen;
        out[HEADER_LEN_OFFSET + 1] = (byte) (headerLen >>> 8);
        final byte[] ascii = dict.toString().getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, out, HEADER_OFFSET_V1, ascii.length);
        return out;
    }

    /**
     * What a header dict says.
     *
     * @param dtype element type
     * @param shape extents, C order
     */
    public record Header(DType dtype, long[] shape) {
        /**
         * {@return the number of elements}
         *
         * @throws ArithmeticException when it does not fit in a {@code long} ({@link #parseDict} refuses such shapes)
         */
        public long elementCount() {
            long n = 1;
            for (long s : shape) {
                n = Math.multiplyExact(n, s);
            }
            return n;
        }
    }

    /**
     * Parses a header dict.
     *
     * @param dict   the ASCII dict text
     * @param source the file, for messages
     * @return dtype and shape
     * @throws IllegalArgumentException naming the file when the dict is malformed, Fortran-ordered or of an
     *                                  unsupported type
     */
    public static Header parseDict(String dict, String source) {
        final Matcher descr = DESCR.matcher(dict);
        final Matcher fortran = FORTRAN.matcher(dict);
        final Matcher shape = SHAPE.matcher(dict);
        if (!descr.find() || !fortran.find() || !shape.find()) {
            throw new IllegalArgumentException(source + ": malformed .npy header " + dict.trim());
        }
        if (fortran.group(1).equals("True")) {
            throw new IllegalArgumentException(source + ": Fortran-ordered arrays are not supported; save with "
                    + "numpy.ascontiguousarray(a)");
        }
        final DType dtype;
        try {
            dtype = DType.fromNpyDescr(descr.group(1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        final String[] parts = shape.group(1).split(",");
        int rank = 0;
        final long[] dims = new long[parts.length];
        for (String p : parts) {
            if (!p.isBlank()) {
                final long d;
                try {
                    d = Long.parseLong(p.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(source + ": .npy shape " + shape.group(1).trim()
                            + " has an extent that is not a 64-bit integer: " + p.trim(), e);
                }
                if (d < 0) {
                    throw new IllegalArgumentException(source + ": .npy shape has a negative extent " + d);
                }
                dims[rank++] = d;
            }
        }
        final Header header = new Header(dtype, Arrays.copyOf(dims, rank));
        try {
            Math.multiplyExact(header.elementCount(), (long) dtype.byteSize());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(source + ": .npy shape " + Arrays.toString(header.shape())
                    + " of " + dtype + " overflows a 64-bit byte count: corrupt or crafted header", e);
        }
        return header;
    }
}
