package org.spdl4j.engine.source.tar;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The 512-byte tar header block (POSIX ustar, with the GNU variant's magic), offsets and field decoding.
 *
 * <pre>
 *   0                                     100    108    116    124          136          148      156 157
 *   +--------------------------------------+------+------+------+------------+------------+--------+-+----
 *   | name (NUL-padded)                    | mode | uid  | gid  | size       | mtime      | chksum |t| linkname
 *   +--------------------------------------+------+------+------+------------+------------+--------+-+----
 *   257      263  265          297          329      337      345                                  500  512
 *   +--------+----+------------+------------+--------+--------+------------------------------------+----+
 *   | magic  |ver | uname      | gname      | devmaj | devmin | prefix (ustar only; GNU: times)    |pad |
 *   +--------+----+------------+------------+--------+--------+------------------------------------+----+
 * </pre>
 * Numbers are octal ASCII, ended by NUL or space; GNU tar writes values too large for octal in base-256 (first byte
 * has its top bit set, the rest big-endian). The checksum is the sum of the header's bytes with the checksum field
 * read as eight spaces. Member data follows the header, padded to a multiple of 512. The archive ends with zero blocks.
 *
 * <p>Stateless; all methods are thread-safe and allocate only the strings they return.
 */
public final class TarHeaderLayout {
    /** The size of a header and the unit of padding. */
    public static final int BLOCK = 512;
    /** Member name, 100 bytes. */
    public static final int NAME_OFFSET = 0;
    /** Length of the name field. */
    public static final int NAME_LENGTH = 100;
    /** Data size, 12 bytes octal or base-256. */
    public static final int SIZE_OFFSET = 124;
    /** Length of the size field. */
    public static final int SIZE_LENGTH = 12;
    /** Header checksum, 8 bytes octal. */
    public static final int CHECKSUM_OFFSET = 148;
    /** Length of the checksum field. */
    public static final int CHECKSUM_LENGTH = 8;
    /** Type flag, one byte. */
    public static final int TYPE_OFFSET = 156;
    /** Magic: {@code "ustar\0"} (POSIX) or {@code "ustar "} (GNU, followed by version {@code " \0"}). */
    public static final int MAGIC_OFFSET = 257;
    /** Name prefix, 155 bytes, POSIX ustar only: the full name is {@code prefix + "/" + name}. */
    public static final int PREFIX_OFFSET = 345;
    /** Length of the prefix field. */
    public static final int PREFIX_LENGTH = 155;

    /** Type flag: regular file ({@code '0'}, or NUL in old archives). */
    public static final byte TYPE_FILE = '0';
    /** Type flag: contiguous file, read as a regular file. */
    public static final byte TYPE_CONTIGUOUS = '7';
    /** Type flag: directory. */
    public static final byte TYPE_DIRECTORY = '5';
    /** Type flag: GNU long name, whose data is the next member's name. */
    public static final byte TYPE_GNU_LONG_NAME = 'L';
    /** Type flag: GNU long link name. */
    public static final byte TYPE_GNU_LONG_LINK = 'K';
    /** Type flag: PAX extended header for the next member. */
    public static final byte TYPE_PAX = 'x';
    /** Type flag: PAX global header. */
    public static final byte TYPE_PAX_GLOBAL = 'g';

    private TarHeaderLayout() {
    }

    /**
     * Tells whether a block is all zeros (an end-of-archive marker).
     *
     * @param block the header block, 512 bytes from index 0
     * @return true when every byte is zero
     */
    public static boolean isZeroBlock(ByteBuffer block) {
        for (int i = 0; i < BLOCK; i += Long.BYTES) {
            if (block.getLong(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks the header checksum (unsigned sum, or signed sum as some old tars wrote).
     *
     * @param block the header block
     * @return true when the stored checksum matches
     */
    public static boolean checksumMatches(ByteBuffer block) {
        long stored = number(block, CHECKSUM_OFFSET, CHECKSUM_LENGTH);
        long unsigned = 0;
        long signed = 0;
        for (int i = 0; i < BLOCK; i++) {
            byte b = i >= CHECKSUM_OFFSET && i < CHECKSUM_OFFSET + CHECKSUM_LENGTH ? (byte) ' ' : block.get(i);
            unsigned += b & 0xFF;
            signed += b;
        }
        return stored == unsigned || stored == signed;
    }

    /**
     * Decodes a numeric field: octal ASCII or GNU base-256.
     *
     * @param block  the header block
     * @param offset the field offset
     * @param length the field length
     * @return the value, or -1 when the field is not a number
     */
    public static long number(ByteBuffer block, int offset, int length) {
        byte first = block.get(offset);
        if ((first & 0x80) != 0) { // GNU base-256: top bit marks it, the remaining bits are big-endian
            long v = first & 0x3F;
            for (int i = 1; i < length; i++) {
                if ((v >>> 55) != 0) {
                    return -1; // would overflow a long
                }
                v = (v << 8) | (block.get(offset + i) & 0xFF);
            }
            return (first & 0x40) != 0 ? -1 : v; // a negative base-256 value is meaningless for sizes
        }
        long v = 0;
        int i = 0;
        while (i < length && (block.get(offset + i) == ' ' || block.get(offset + i) == 0)) {
            i++; // leading padding
        }
        boolean digits = false;
        for (; i < length; i++) {
            byte b = block.get(offset + i);
            if (b == 0 || b == ' ') {
                break;
            }
            if (b < '0' || b > '7') {
                return -1;
            }
            v = (v << 3) | (b - '0');
            digits = true;
        }
        return digits ? v : 0;
    }

    /**
     * Decodes a NUL-terminated string field as UTF-8.
     *
     * @param block  the header block
     * @param offset the field offset
     * @param length the field length
     * @return the text up to the first NUL
     */
    public static String string(ByteBuffer block, int offset, int length) {
        int end = 0;
        while (end < length && block.get(offset + end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end];
        block.get(offset, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Tells whether the header is POSIX ustar (whose prefix field extends the name), not GNU or v7.
     *
     * @param block the header block
     * @return true for magic {@code "ustar\0"}
     */
    public static boolean isPosixUstar(ByteBuffer block) {
        return block.get(MAGIC_OFFSET) == 'u' && block.get(MAGIC_OFFSET + 1) == 's' && block.get(MAGIC_OFFSET + 2) == 't'
                && block.get(MAGIC_OFFSET + 3) == 'a' && block.get(MAGIC_OFFSET + 4) == 'r'
                && block.get(MAGIC_OFFSET + 5) == 0;
    }
}
