package org.spdl4j.media;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A decoder thread's growable native buffer for inputs that are not already in native memory: files (read with a
 * FileChannel straight into it, no heap copy) and heap-backed buffers (copied once); also used as plain working memory
 * ({@link #reserve}).
 *
 * <p>Not thread safe: owned by one decoder. Grows to the next power of two when an input does not fit (an allocation
 * only while the largest input seen so far grows); the old buffer is left to the GC's cleaner.
 */
final class ScratchBuffer {
    private static final int INITIAL = 256 * 1024;
    private ByteBuffer buffer;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);

    /** {@return the address of the first byte} */
    long address() {
        return view.addressOffset();
    }

    /**
     * Makes room for {@code length} bytes (contents not kept when it grows).
     *
     * @param length bytes needed
     * @param label the input, for errors
     * @return the address of the first byte
     */
    long reserve(final long length, final String label) {
        ensure(Math.max(1, length), label);
        return view.addressOffset();
    }

    private void ensure(final long length, final String label) {
        if (buffer != null && buffer.capacity() >= length) {
            return;
        }
        if (length > Integer.MAX_VALUE - 8) {
            throw new MediaException(label, "input of " + length + " bytes is too large for one buffer");
        }
        final int size = (int) Math.max(INITIAL, Math.min(Integer.MAX_VALUE - 8, Long.highestOneBit(length - 1) << 1));
        buffer = ByteBuffer.allocateDirect(size);
        view.wrap(BufferUtil.address(buffer), size);
    }

    /**
     * Reads a whole file.
     *
     * @param path the file
     * @param maxBytes refuse larger files
     * @param label the input, for errors
     * @return the number of bytes read, at {@link #address()}
     */
    long readFile(final Path path, final long maxBytes, final String label) {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            final long size = channel.size();
            if (size > maxBytes) {
                throw new MediaException(label, size + " bytes exceeds the limit of " + maxBytes + "; raise "
                        + "MediaLimits.maxInputBytes if the input is trusted");
            }
            ensure(Math.max(1, size), label);
            buffer.clear().limit((int) size);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) {
                    break;
                }
            }
            return buffer.position();
        } catch (final IOException e) {
            throw new MediaException(label, "cannot read file: " + e, 0, e);
        }
    }

    /**
     * Copies bytes from a (heap) buffer.
     *
     * @param src the source
     * @param offset first byte
     * @param length number of bytes
     * @return the address of the copy
     */
    long copyFrom(final DirectBuffer src, final int offset, final int length) {
        ensure(Math.max(1, length), "buffer");
        src.getBytes(offset, view, 0, length);
        return view.addressOffset();
    }

    /** Drops the buffer (its memory is returned by the direct-buffer cleaner). */
    void free() {
        buffer = null;
        view.wrap(0, 0);
    }
}
