package org.spdl4j.engine.source.tar;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opens a shard by name as a byte stream: local files by default; object stores plug in a streaming GET.
 * Implementations are thread-safe; {@link #open} blocks. A {@link java.nio.channels.SeekableByteChannel} lets the
 * reader skip member data by seeking (fast resume).
 */
@FunctionalInterface
public interface ShardOpener {
    /**
     * Opens shard names as local file paths. A name that is not a regular file (a named pipe a producer streams a
     * shard into, {@code /dev/stdin}) opens as a plain stream: it cannot seek.
     */
    ShardOpener LOCAL_FILES = name -> {
        Path path = Path.of(name);
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        return Files.isRegularFile(path) ? channel : new PipeChannel(channel);
    };

    /**
     * Opens a shard.
     *
     * @param shard the shard name, as given to the source
     * @return a channel positioned at the shard's first byte; the caller owns and closes it
     * @throws IOException when the shard cannot be opened
     */
    ReadableByteChannel open(String shard) throws IOException;
}
