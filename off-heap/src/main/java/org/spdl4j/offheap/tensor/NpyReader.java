package org.spdl4j.offheap.tensor;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;

/**
 * Reads a NumPy {@code .npy} file (v1.0 or v2.0, C order, native byte order, see {@link NpyFormat}) into a lease
 * from a pool. Stateless; thread-safe; allocates the header and the returned view (not for the hot path).
 */
public final class NpyReader {
    private NpyReader() {
    }

    /**
     * Reads a file into a new lease.
     *
     * @param file the {@code .npy} file
     * @param pool where the data's lease comes from
     * @return a contiguous tensor; the caller owns its lease and must release it
     * @throws IOException              when the file cannot be read or is truncated
     * @throws IllegalArgumentException naming the file when it is not an {@code .npy} this reader supports
     */
    public static Tensor read(Path file, BufferPool pool) throws IOException {
        try (FileChannel ch = FileChannel.open(file)) {
            final ByteBuffer pre = readFully(ch, ByteBuffer.allocate(NpyFormat.HEADER_OFFSET_V2), file);
            final byte[] magic = Arrays.copyOf(pre.array(), NpyFormat.MAGIC.length);
            if (!Arrays.equals(magic, NpyFormat.MAGIC)) {
                throw new IllegalArgumentException(file + ": not a .npy file (bad magic)");
            }
            final int major = pre.get(NpyFormat.VERSION_OFFSET);
            pre.order(ByteOrder.LITTLE_ENDIAN);
            final int dictOffset;
            final long dictLen;
            if (major == 1) {
                dictOffset = NpyFormat.HEADER_OFFSET_V1;
                dictLen = Short.toUnsignedInt(pre.getShort(NpyFormat.HEADER_LEN_OFFSET));
            } else if (major == 2) {
                dictOffset = NpyFormat.HEADER_OFFSET_V2;
                dictLen = Integer.toUnsignedLong(pre.getInt(NpyFormat.HEADER_LEN_OFFSET));
            } else {
                throw new IllegalArgumentException(file + ": .npy version " + major + " not supported (1.0, 2.0)");
            }
            if (dictLen > 1 << 20) {
                throw new IllegalArgumentException(file + ": .npy header of " + dictLen + " B is implausible");
            }
            ch.position(dictOffset);
            final ByteBuffer dict = readFully(ch, ByteBuffer.allocate((int) dictLen), file);
            final NpyFormat.Header header = NpyFormat.parseDict(
                    new String(dict.array(), StandardCharsets.US_ASCII), file.toString());
            final long bytes = header.elementCount() * header.dtype().byteSize();
            if (bytes > pool.maxSlabBytes()) {
                throw new IllegalArgumentException(file + ": " + bytes + " B of data is larger than pool '"
                        + pool.name() + "' can lease (" + pool.maxSlabBytes() + " B)");
            }
            final Lease lease = pool.acquire((int) Math.max(1, bytes));
            try {
                final Tensor tensor = Tensor.contiguous(lease, 0, header.dtype(), header.shape());
                readFully(ch, tensor.asByteBuffer(), file);
                return tensor;
            } catch (IOException | RuntimeException e) {
                lease.release(); // the caller never saw it: freed on every path
                throw e;
            }
        }
    }

    private static ByteBuffer readFully(FileChannel ch, ByteBuffer into, Path file) throws IOException {
        while (into.hasRemaining()) {
            if (ch.read(into) < 0) {
                throw new EOFException(file + ": truncated .npy file (" + into.remaining() + " B missing)");
            }
        }
        return into;
    }
}
