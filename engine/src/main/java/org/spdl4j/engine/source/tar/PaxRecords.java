package org.spdl4j.engine.source.tar;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The fields spdl4j uses from a PAX extended header ({@code "<len> <key>=<value>\n"} records): {@code path} and
 * {@code size}. Others (times, owners, charset) are ignored.
 *
 * @param path the member path, or null when the header has none
 * @param size the member size, or -1 when the header has none
 */
record PaxRecords(String path, long size) {
    static PaxRecords parse(String shard, long offset, ByteBuffer data) {
        byte[] bytes = new byte[data.remaining()];
        data.get(0, bytes);
        String path = null;
        long size = -1;
        int i = 0;
        while (i < bytes.length && bytes[i] != 0) {
            int space = i;
            while (space < bytes.length && bytes[space] != ' ') {
                space++;
            }
            int len;
            try {
                len = Integer.parseInt(new String(bytes, i, space - i, StandardCharsets.US_ASCII));
            } catch (NumberFormatException e) {
                throw new TarFormatException(shard, offset, "bad PAX record length");
            }
            // At least "<digits> " plus one byte of record ("\n"): the record's text runs from space + 1 to
            // i + len - 1 (its newline excluded), so a shorter length would give it a negative size.
            if (len < space - i + 2 || len > bytes.length - i) {
                throw new TarFormatException(shard, offset, "PAX record overruns its header");
            }
            // the record is UTF-8 "key=value\n" after the space; the length counts every byte including itself
            String record = new String(bytes, space + 1, i + len - space - 2, StandardCharsets.UTF_8);
            int eq = record.indexOf('=');
            if (eq > 0) {
                String key = record.substring(0, eq);
                String value = record.substring(eq + 1);
                if (value.isEmpty()) {
                    // POSIX: an empty value deletes the keyword, so the ustar header's own field applies
                    if (key.equals("path")) {
                        path = null;
                    } else if (key.equals("size")) {
                        size = -1;
                    }
                } else if (key.equals("path")) {
                    path = value;
                } else if (key.equals("size")) {
                    try {
                        size = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        throw new TarFormatException(shard, offset, "bad PAX size '" + value + "'");
                    }
                }
            }
            i += len;
        }
        return new PaxRecords(path, size);
    }
}
