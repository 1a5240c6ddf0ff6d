package org.spdl4j.engine.source.tar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;

import static org.spdl4j.engine.source.tar.TarHeaderLayout.BLOCK;

/**
 * Reads a tar stream member by member: POSIX ustar (with its name prefix), GNU long names ({@code 'L'}), PAX
 * extended headers ({@code path}, {@code size}); other members (directories, links, devices) are skipped after their
 * names are checked.
 *
 * <p>Streaming: it reads forward only, one header at a time; data not read by {@link #readData} is skipped (by seeking
 * when the channel is seekable, so skipping a shard's samples costs only its headers). Memory: one reused 512-byte
 * header buffer and, only for non-seekable skips, one reused 64 KiB scratch buffer.
 *
 * <p><b>Safety:</b> member names that are absolute ({@code /etc/x}, {@code C:x}), or have a {@code ..} segment,
 * are rejected with a {@link TarFormatException}, whatever the member type. <b>Truncation:</b> a stream that ends
 * inside a header or member data, or without an end-of-archive block, throws {@link TarFormatException} naming the
 * shard and offset. I/O errors are {@link UncheckedIOException}s naming the shard and offset.
 *
 * <p><b>Threading:</b> not thread-safe; one reader per shard, used by one thread. <b>Blocking:</b> on the channel.
 * <b>Ownership:</b> owns the channel and closes it in {@link #close()}.
 */
public final class TarStreamReader implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TarStreamReader.class);
    /** Longest GNU long name or PAX header accepted (bigger ones are not names; likely corruption). */
    public static final int MAX_META_SIZE = 1 << 20;
    /**
     * Largest member size believed (2^50 B, a pebibyte): far above any real member, far enough below
     * {@code Long.MAX_VALUE} that no size + padding or offset arithmetic can wrap. A PAX or base-256 size above it is
     * a corrupt or crafted header.
     */
    public static final long MAX_MEMBER_SIZE = 1L << 50;

    private final String shard;
    private final ReadableByteChannel channel;
    private final ByteBuffer header = ByteBuffer.allocate(BLOCK);
    private ByteBuffer scratch;
    private long offset;
    private long dataLeft;
    private long paddingLeft;
    private boolean ended;

    /**
     * Creates a reader positioned at the start of a tar stream.
     *
     * @param shard   the shard's name, for messages
     * @param channel the stream, at offset 0; this reader owns it
     */
    public TarStreamReader(String shard, ReadableByteChannel channel) {
        this.shard = shard;
        this.channel = channel;
    }

    /** {@return the shard name} */
    public String shard() {
        return shard;
    }

    /** {@return the byte offset of the next byte this reader will consume} */
    public long offset() {
        return offset;
    }

    /**
     * Moves to the next regular-file member, skipping what is left of the current one.
     *
     * @return the member, or null at the end-of-archive block
     * @throws TarFormatException on truncation, a bad checksum, or an escaping name
     */
    public TarMember next() {
        if (ended) {
            return null;
        }
        skip(dataLeft + paddingLeft, "the rest of the previous member");
        dataLeft = 0;
        paddingLeft = 0;
        String longName = null;
        String paxPath = null;
        long paxSize = -1;
        long chainStart = offset;
        while (true) {
            long headerOffset = offset;
            header.clear();
            int got = fill(header);
            if (got < BLOCK) {
                throw truncated(headerOffset, got == 0 ? "ends without an end-of-archive block (cut at a member boundary?)"
                        : "ends inside a header (" + got + " of 512 bytes)");
            }
            if (TarHeaderLayout.isZeroBlock(header)) {
                ended = true;
                return null;
            }
            if (!TarHeaderLayout.checksumMatches(header)) {
                throw new TarFormatException(shard, headerOffset, "bad header checksum; the shard is corrupt or not a tar");
            }
            byte type = header.get(TarHeaderLayout.TYPE_OFFSET);
            // A PAX size describes the member the chain ends with, never the metadata headers still in between (a
            // GNU long name after a PAX header has its own size field; reading it with the member's would misframe
            // the shard).
            long size = paxSize >= 0 && !isMetadata(type) ? paxSize
                    : TarHeaderLayout.number(header, TarHeaderLayout.SIZE_OFFSET, TarHeaderLayout.SIZE_LENGTH);
            if (size < 0 || size > MAX_MEMBER_SIZE) { // size + padding must not wrap, nor any offset after it
                throw new TarFormatException(shard, headerOffset, size < 0 ? "bad size field in header"
                        : "member size " + size + " is beyond any real archive (limit " + MAX_MEMBER_SIZE + " B)");
            }
            long padding = (BLOCK - (size % BLOCK)) % BLOCK;
            switch (type) {
                case TarHeaderLayout.TYPE_GNU_LONG_NAME -> {
                    longName = cString(readMeta(size, padding, headerOffset));
                    continue;
                }
                case TarHeaderLayout.TYPE_PAX -> {
                    PaxRecords pax = PaxRecords.parse(shard, headerOffset, readMeta(size, padding, headerOffset));
                    paxPath = pax.path() != null ? pax.path() : paxPath;
                    paxSize = pax.size() >= 0 ? pax.size() : paxSize;
                    continue;
                }
                case TarHeaderLayout.TYPE_GNU_LONG_LINK, TarHeaderLayout.TYPE_PAX_GLOBAL -> {
                    skip(size + padding, "a metadata member");
                    continue;
                }
                default -> {
                    // a real member: falls through to the name check below
                }
            }
            String name = longName != null ? longName : paxPath != null ? paxPath : headerName();
            if (type == TarHeaderLayout.TYPE_DIRECTORY && MemberNames.isArchiveRoot(name)) {
                name = "."; // the archive's root directory (tar -C dir .): nothing to read, nothing to name
            } else {
                name = MemberNames.check(shard, headerOffset, name);
            }
            if (type == TarHeaderLayout.TYPE_FILE || type == 0 || type == TarHeaderLayout.TYPE_CONTIGUOUS) {
                dataLeft = size;
                paddingLeft = padding;
                return new TarMember(name, size, chainStart, offset);
            }
            // directory, link, device, fifo: header only (tar readers ignore a size in these headers), name checked
            // above; other types (unknown extensions) carry their size of data, skipped
            boolean headerOnly = type == TarHeaderLayout.TYPE_DIRECTORY || (type >= '1' && type <= '6');
            skip(headerOnly ? 0 : size + padding, "a non-file member");
            longName = null;
            paxPath = null;
            paxSize = -1;
            chainStart = offset;
        }
    }

    /**
     * Reads the current member's data into {@code dst}, which must have exactly {@link TarMember#size()} bytes
     * remaining. Afterwards the member's data is consumed.
     *
     * @param dst the destination
     * @throws TarFormatException when the stream ends before the data does
     */
    public void readData(ByteBuffer dst) {
        if (dst.remaining() != dataLeft) {
            throw new IllegalArgumentException("destination has " + dst.remaining() + " bytes remaining, member has "
                    + dataLeft + " left");
        }
        long start = offset;
        int got = fill(dst);
        if (got < dataLeft) {
            throw truncated(offset, "member data from offset " + start + " needs " + dataLeft + " bytes, only " + got
                    + " present");
        }
        dataLeft = 0;
    }

    private ByteBuffer readMeta(long size, long padding, long headerOffset) {
        if (size > MAX_META_SIZE) {
            throw new TarFormatException(shard, headerOffset, "long-name or PAX header of " + size + " bytes (limit "
                    + MAX_META_SIZE + ")");
        }
        ByteBuffer meta = ByteBuffer.allocate((int) size); // rare (long names only): allocation is fine here
        int got = fill(meta);
        if (got < size) {
            throw truncated(offset, "metadata member needs " + size + " bytes, only " + got + " present");
        }
        skip(padding, "header padding");
        return meta.flip();
    }

    /** {@return whether {@code type} is a header that describes the next one (long name, long link, PAX)} */
    private static boolean isMetadata(byte type) {
        return type == TarHeaderLayout.TYPE_GNU_LONG_NAME || type == TarHeaderLayout.TYPE_GNU_LONG_LINK
                || type == TarHeaderLayout.TYPE_PAX || type == TarHeaderLayout.TYPE_PAX_GLOBAL;
    }

    private String headerName() {
        String name = TarHeaderLayout.string(header, TarHeaderLayout.NAME_OFFSET, TarHeaderLayout.NAME_LENGTH);
        if (TarHeaderLayout.isPosixUstar(header)) {
            String prefix = TarHeaderLayout.string(header, TarHeaderLayout.PREFIX_OFFSET, TarHeaderLayout.PREFIX_LENGTH);
            if (!prefix.isEmpty()) {
                return prefix + "/" + name;
            }
        }
        return name;
    }

    private static String cString(ByteBuffer b) {
        int end = 0;
        while (end < b.limit() && b.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end];
        b.get(0, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Reads until {@code dst} is full or the stream ends; returns the bytes read. */
    private int fill(ByteBuffer dst) {
        int total = 0;
        try {
            while (dst.hasRemaining()) {
                int n = channel.read(dst);
                if (n < 0) {
                    break;
                }
                total += n;
                offset += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tar shard '" + shard + "' at offset " + offset + ": " + e, e);
        }
        return total;
    }

    private void skip(long n, String what) {
        if (n == 0) {
            return;
        }
        try {
            if (channel instanceof SeekableByteChannel s) {
                long size = s.size();
                if (offset + n > size) {
                    long from = offset;
                    offset = size;
                    throw truncated(size, what + " from offset " + from + " needs " + n + " bytes, only "
                            + (size - from) + " present");
                }
                s.position(s.position() + n);
                offset += n;
                return;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot seek in tar shard '" + shard + "' at offset " + offset + ": " + e, e);
        }
        if (scratch == null) {
            scratch = ByteBuffer.allocate(64 * 1024); // once per reader, for non-seekable streams only
        }
        long left = n;
        while (left > 0) {
            scratch.clear().limit((int) Math.min(scratch.capacity(), left));
            int got = fill(scratch);
            left -= got;
            if (got == 0 || scratch.hasRemaining()) {
                throw truncated(offset, what + " needs " + left + " more bytes");
            }
        }
    }

    private TarFormatException truncated(long at, String detail) {
        ended = true;
        return new TarFormatException(shard, at, "truncated: " + detail);
    }

    /**
     * Closes the channel. Idempotent; does not throw: a close failure of a read-only channel loses nothing, and
     * throwing here would replace the error a caller is closing the shard for (it is logged instead).
     */
    @Override
    public void close() {
        ended = true;
        try {
            channel.close();
        } catch (IOException e) {
            LOG.warn("closing tar shard '{}' failed (nothing was lost: the shard is only read)", shard, e);
        }
    }
}
