package org.spdl4j.engine.source.tar;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Writes minimal ustar archives with any member names (including hostile ones) for tests. */
public final class TestTarWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** Adds a regular file member. */
    public TestTarWriter add(String name, byte[] data) {
        return add(name, data, (byte) '0');
    }

    TestTarWriter add(String name, byte[] data, byte type) {
        byte[] h = new byte[512];
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(n, 0, h, 0, Math.min(100, n.length));
        octal(h, 100, 8, 0644);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, data.length);
        octal(h, 136, 12, 0);
        h[156] = type;
        System.arraycopy("ustar\0".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 6);
        h[263] = '0';
        h[264] = '0';
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        int sum = 0;
        for (byte b : h) {
            sum += b & 0xFF;
        }
        octal(h, 148, 7, sum);
        out.writeBytes(h);
        out.writeBytes(data);
        out.writeBytes(new byte[(512 - data.length % 512) % 512]);
        return this;
    }

    private static void octal(byte[] h, int off, int len, long v) {
        String s = String.format("%0" + (len - 1) + "o", v);
        System.arraycopy(s.getBytes(StandardCharsets.US_ASCII), 0, h, off, len - 1);
    }

    /** {@return the archive, with its end-of-archive blocks} */
    public byte[] finish() {
        out.writeBytes(new byte[1024]);
        return out.toByteArray();
    }
}
