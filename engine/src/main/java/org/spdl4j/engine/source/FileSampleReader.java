package org.spdl4j.engine.source;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Reads one file into a one-field {@link Sample}: the function an engine pipe runs after a folder or file-list
 * source. The field is named after the file's extension (lower case; {@code "bytes"} when it has none).
 *
 * <p><b>Blocking:</b> yes, file I/O; run it on an I/O stage (many in flight, or virtual threads). <b>Threading:</b>
 * stateless, thread-safe. <b>Allocation:</b> one buffer of the file's size from the {@link SampleAllocator}, which
 * the channel reads into directly (no intermediate copy), plus the small sample objects. <b>Errors:</b>
 * {@link UncheckedIOException} naming the file.
 */
public final class FileSampleReader implements Function<FileItem, Sample> {
    private final SampleAllocator allocator;

    /**
     * Creates a reader.
     *
     * @param allocator where the bytes go
     */
    public FileSampleReader(SampleAllocator allocator) {
        this.allocator = allocator;
    }

    @Override
    public Sample apply(FileItem item) {
        ByteBuffer buffer = null;
        try (FileChannel ch = FileChannel.open(item.path(), StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE - 8) {
                throw new IOException("file of " + size + " bytes is too large for one sample field");
            }
            try {
                buffer = allocator.allocate((int) size);
            } catch (RuntimeException e) { // pool too small or exhausted: the error must name the file, as all here
                throw new IllegalStateException("cannot read sample file " + item.path() + " (" + size
                        + " B): no buffer for it: " + e.getMessage(), e);
            }
            buffer.limit((int) size);
            while (buffer.hasRemaining()) {
                if (ch.read(buffer) < 0) {
                    throw new EOFException("file shrank while reading, at byte " + buffer.position() + " of " + size);
                }
            }
            buffer.flip();
            Sample s = new Sample(item.key(), item.label(), item.path().toString(),
                    List.of(new SampleField(extension(item.key()), buffer)), allocator);
            buffer = null; // owned by the sample now
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read sample file " + item.path() + ": " + e, e);
        } finally {
            if (buffer != null) {
                allocator.release(buffer);
            }
        }
    }

    static String extension(String key) {
        int slash = key.lastIndexOf('/');
        int dot = key.lastIndexOf('.');
        return dot > slash && dot < key.length() - 1 ? key.substring(dot + 1).toLowerCase(Locale.ROOT) : "bytes";
    }
}
