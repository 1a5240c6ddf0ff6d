package org.spdl4j.perf.source;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writes plain ustar shards for benchmarks (names under 100 bytes). Not thread-safe. */
final class TarShardWriter implements AutoCloseable {
    private final OutputStream out;

    TarShardWriter(OutputStream out) {
        this.out = out;
    }

    void add(String name, byte[] data) throws IOException {
        byte[] h = new byte[512];
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(n, 0, h, 0, n.length);
        octal(h, 100, 8, 0644);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, data.length);
        octal(h, 136, 12, 0);
        h[156] = '0';
        System.arraycopy("ustar\0".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 6);
        h[263] = '0';
        h[264] = '0';
        java.util.Arrays.fill(h, 148, 156, (byte) ' ');
        int sum = 0;
        for (byte b : h) {
            sum += b & 0xFF;
        }
        octal(h, 148, 7, sum);
        out.write(h);
        out.write(data);
        out.write(new byte[(512 - data.length % 512) % 512]);
    }

    private static void octal(byte[] h, int off, int len, long v) {
        byte[] s = String.format("%0" + (len - 1) + "o", v).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(s, 0, h, off, len - 1);
    }

    @Override
    public void close() throws IOException {
        out.write(new byte[1024]);
        out.close();
    }
}
