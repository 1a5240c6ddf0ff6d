package org.spdl4j.engine.source.tar;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * A channel read forward only, whatever its type: a {@link java.nio.channels.FileChannel} over a pipe is a
 * {@link java.nio.channels.SeekableByteChannel} by type but cannot seek, so the tar reader must skip by reading.
 *
 * <p><b>Threading:</b> as the channel it wraps.
 */
public final class PipeChannel implements ReadableByteChannel {
    private final ReadableByteChannel delegate;

    /**
     * Wraps a channel.
     *
     * @param delegate the channel, owned by this one from now on
     */
    public PipeChannel(ReadableByteChannel delegate) {
        this.delegate = delegate;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return delegate.read(dst);
    }

    @Override
    public boolean isOpen() {
        return delegate.isOpen();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
