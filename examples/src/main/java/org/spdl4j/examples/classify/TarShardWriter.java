package org.spdl4j.examples.classify;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.FolderDataset;

/**
 * Packs a folder dataset into WebDataset tar shards: sample {@code n} becomes members {@code <n>.jpg} (the file) and
 * {@code <n>.cls} (its label as text), {@code perShard} samples per shard, in the ustar format any tar reads.
 *
 * <p>Set-up code for the example: not thread-safe, allocates freely.
 */
public final class TarShardWriter {
    private static final int BLOCK = 512;

    private TarShardWriter() {
    }

    /**
     * Writes the shards.
     *
     * @param dataset  the images and labels
     * @param dir      where the shards go ({@code shard-000000.tar}, ...)
     * @param perShard samples per shard
     * @return the shard paths, in order
     * @throws IOException when a file cannot be read or written
     */
    public static List<Path> write(FolderDataset dataset, Path dir, int perShard) throws IOException {
        Files.createDirectories(dir);
        List<Path> shards = new ArrayList<>();
        for (long start = 0; start < dataset.size(); start += perShard) {
            Path shard = dir.resolve(String.format(Locale.ROOT, "shard-%06d.tar", shards.size()));
            try (OutputStream out = Files.newOutputStream(shard)) {
                for (long i = start; i < Math.min(dataset.size(), start + perShard); i++) {
                    FileItem item = dataset.get(i);
                    String key = String.format(Locale.ROOT, "%08d", i);
                    String ext = item.key().substring(item.key().lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
                    member(out, key + "." + ext, Files.readAllBytes(item.path()));
                    member(out, key + ".cls", Integer.toString(item.label()).getBytes(StandardCharsets.US_ASCII));
                }
                out.write(new byte[2 * BLOCK]); // end of archive: two zero blocks
            }
            shards.add(shard);
        }
        return shards;
    }

    private static void member(OutputStream out, String name, byte[] body) throws IOException {
        byte[] h = new byte[BLOCK];
        put(h, 0, name, 100);
        put(h, 100, "0000644", 8);
        put(h, 108, "0000000", 8);
        put(h, 116, "0000000", 8);
        put(h, 124, String.format(Locale.ROOT, "%011o", body.length), 12);
        put(h, 136, String.format(Locale.ROOT, "%011o", 0), 12);
        h[156] = '0'; // regular file
        put(h, 257, "ustar", 6);
        h[263] = '0';
        h[264] = '0';
        java.util.Arrays.fill(h, 148, 156, (byte) ' '); // checksum counts its own field as spaces
        int sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        put(h, 148, String.format(Locale.ROOT, "%06o", sum), 7); // six digits, NUL, then the space already there
        out.write(h);
        out.write(body);
        out.write(new byte[(BLOCK - body.length % BLOCK) % BLOCK]);
    }

    private static void put(byte[] header, int offset, String value, int width) {
        byte[] b = value.getBytes(StandardCharsets.US_ASCII);
        if (b.length > width) {
            throw new IllegalArgumentException("tar field '" + value + "' longer than " + width + " bytes");
        }
        System.arraycopy(b, 0, header, offset, b.length);
    }
}
