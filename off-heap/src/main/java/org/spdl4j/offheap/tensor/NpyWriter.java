package org.spdl4j.offheap.tensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes a contiguous {@link Tensor} as a NumPy {@code .npy} file (format v1.0, see {@link NpyFormat}), so a batch
 * can be inspected with {@code numpy.load}. The elements go straight from off-heap memory to the channel, no copy.
 * Stateless; thread-safe; the caller must hold the tensor's lease while writing.
 */
public final class NpyWriter {
    private NpyWriter() {
    }

    /**
     * Writes a tensor to a file, replacing it.
     *
     * @param tensor contiguous tensor
     * @param file   destination
     * @throws IOException           when the file cannot be written
     * @throws IllegalStateException when the tensor is strided
     */
    public static void write(Tensor tensor, Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            write(tensor, ch);
        }
    }

    /**
     * Writes a tensor to a channel.
     *
     * @param tensor  contiguous tensor
     * @param channel destination, left open
     * @throws IOException           when the channel fails
     * @throws IllegalStateException when the tensor is strided
     */
    public static void write(Tensor tensor, WritableByteChannel channel) throws IOException {
        final ByteBuffer data = tensor.asByteBuffer();
        writeFully(channel, ByteBuffer.wrap(NpyFormat.header(tensor.dtype(), tensor.shape())));
        writeFully(channel, data);
    }

    private static void writeFully(WritableByteChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }
}
