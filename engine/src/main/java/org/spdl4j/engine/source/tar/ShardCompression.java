package org.spdl4j.engine.source.tar;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * How a tar shard's bytes are compressed, told by its name: {@code .tar} (none), {@code .tar.gz} or {@code .tgz}
 * (gzip, the JDK's inflater; concatenated members are read as one stream) and {@code .tar.zst} or {@code .tar.zstd}
 * (Zstandard, through {@code com.github.luben:zstd-jni}, an optional dependency the application adds).
 *
 * <p>A compressed shard is a stream: the tar reader cannot seek in it, so skipping members (resuming inside a shard)
 * reads and decompresses through them. Positions stay exact; a resume costs the decompression of what it skips.
 *
 * <p><b>Threading:</b> constants; each wrapped channel belongs to one reader. <b>Allocation:</b> a decompressor and
 * its buffers per shard opened.
 */
public enum ShardCompression {
    /** A plain {@code .tar}. */
    NONE(".tar"),
    /** {@code .tar.gz} or {@code .tgz}. */
    GZIP(".tar.gz", ".tgz"),
    /** {@code .tar.zst} or {@code .tar.zstd}: needs {@code com.github.luben:zstd-jni} on the class or module path. */
    ZSTD(".tar.zst", ".tar.zstd");

    /** Bytes the compressed stream is read in. */
    private static final int BUFFER_BYTES = 256 * 1024;

    private final String[] suffixes;

    ShardCompression(String... suffixes) {
        this.suffixes = suffixes;
    }

    /**
     * {@return the compression of a shard named {@code name} (a path or an object key), or {@code null} when the name
     * is not a tar shard's}
     *
     * @param name the shard's name; case-insensitive
     */
    public static ShardCompression of(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (ShardCompression c : values()) {
            for (String s : c.suffixes) {
                if (lower.endsWith(s)) {
                    return c;
                }
            }
        }
        return null;
    }

    /**
     * {@return whether {@code name} is a tar shard's name, compressed or not}
     *
     * @param name a file name, path or object key
     */
    public static boolean isShard(String name) {
        return of(name) != null;
    }

    /**
     * Wraps a shard's raw bytes in the decompressor its name asks for ({@link #NONE}: the channel itself).
     *
     * @param raw   the shard's bytes as stored; owned by the returned channel from here on (closed with it)
     * @param shard the shard's name, for messages
     * @return the tar stream
     * @throws IOException when the stream's header is not of this compression (naming the shard), or when
     *                     {@code zstd-jni} is missing for a {@code .tar.zst} shard
     */
    public ReadableByteChannel wrap(ReadableByteChannel raw, String shard) throws IOException {
        if (this == NONE) {
            return raw;
        }
        InputStream in = new BufferedInputStream(Channels.newInputStream(raw), BUFFER_BYTES);
        try {
            InputStream inflated = this == GZIP ? new GZIPInputStream(in, BUFFER_BYTES) : zstd(in, shard);
            return Channels.newChannel(inflated);
        } catch (IOException | RuntimeException | LinkageError e) {
            try {
                in.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            if (e instanceof LinkageError) {
                throw new IOException(shard + ": cannot load the Zstandard decoder (" + e + "); add "
                    + "com.github.luben:zstd-jni to the application to read .tar.zst shards", e);
            }
            if (e instanceof IOException io) {
                throw new IOException(shard + ": not a " + this.name().toLowerCase(Locale.ROOT) + " stream as its "
                    + "name says (" + io.getMessage() + ")", io);
            }
            throw (RuntimeException) e;
        }
    }

    private static InputStream zstd(InputStream in, String shard) throws IOException {
        try {
            Class.forName("com.github.luben.zstd.ZstdInputStream", false, ShardCompression.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new NoClassDefFoundError("com.github.luben.zstd.ZstdInputStream (for " + shard + ")");
        }
        return ZstdStreams.open(in);
    }
}
