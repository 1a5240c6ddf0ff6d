package org.spdl4j.engine.source.tar;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPOutputStream;

/**
 * Compresses a test archive ({@link TestTarWriter}) as a shard of a given suffix is. A class of its own, so that
 * {@link TestTarWriter} needs nothing but the JDK (a library user's project writes shards with it, without zstd).
 */
public final class TestShardCompression {
    private TestShardCompression() {
    }

    /**
     * Compresses an archive: {@code .tar} as it is, {@code .tar.gz} and {@code .tgz} with gzip, {@code .tar.zst}
     * with zstd.
     *
     * @param tar    the archive
     * @param suffix the shard's suffix
     * @return the shard's bytes
     */
    public static byte[] compress(byte[] tar, String suffix) {
        if (suffix.equals(".tar")) {
            return tar;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = suffix.equals(".tar.zst") ? new ZstdOutputStream(out) : new GZIPOutputStream(out)) {
            z.write(tar);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
