package org.spdl4j.loader.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.spdl4j.engine.source.tar.PipeChannel;
import org.spdl4j.engine.source.tar.ShardOpener;

/**
 * Deadlines for the reads of a stream the loader's source thread reads itself (tar shards): a {@link ShardOpener}
 * whose opens are bounded ({@link PlatformOpen#openWithin}) and whose channels are closed by a watchdog when one read
 * call makes no progress for the deadline, which ends the blocked read with an error naming the shard. A hung mount or
 * a stalled stream then costs that shard (the samples read before it are kept), not the run.
 *
 * <p><b>Threading:</b> a guarded channel is read by one thread; the watchdog (one daemon thread,
 * {@code spdl4j-read-watchdog}, running only while guarded channels are open) reads its read-start stamp and may close
 * it. <b>Cost:</b> two volatile writes per read call (a read call moves tens of kilobytes at the least).
 */
final class StallGuard {
    /** How often the watchdog looks. */
    private static final long TICK_NANOS = 200_000_000L;
    private static final Set<Guarded> OPEN = ConcurrentHashMap.newKeySet();
    private static final Object LOCK = new Object();
    private static Thread watchdog; // guarded by LOCK

    private StallGuard() {
    }

    /**
     * {@return an opener whose opens and reads fail past {@code deadline}}
     *
     * @param opener   the opener guarded; local files are opened on a platform thread within the deadline
     * @param deadline the longest an open or one read call may block
     */
    static ShardOpener guard(ShardOpener opener, Duration deadline) {
        long nanos = deadline.toNanos();
        return name -> {
            ReadableByteChannel channel;
            if (opener == ShardOpener.LOCAL_FILES) {
                Path path = Path.of(name);
                FileChannel file = PlatformOpen.openWithin(path, deadline);
                channel = Files.isRegularFile(path) ? file : new PipeChannel(file); // a pipe cannot seek
            } else {
                channel = opener.open(name);
            }
            Guarded g = channel instanceof SeekableByteChannel s ? new GuardedSeekable(name, s, nanos)
                : new Guarded(name, channel, nanos);
            register(g);
            return g;
        };
    }

    private static void register(Guarded g) {
        synchronized (LOCK) {
            OPEN.add(g);
            if (watchdog == null) {
                watchdog = new Thread(StallGuard::watch, "spdl4j-read-watchdog");
                watchdog.setDaemon(true);
                watchdog.start();
            }
        }
    }

    /** Closes channels whose current read is past its deadline; ends once none is open. */
    private static void watch() {
        for (;;) {
            LockSupport.parkNanos(TICK_NANOS);
            synchronized (LOCK) {
                if (OPEN.isEmpty()) {
                    watchdog = null;
                    return;
                }
            }
            long now = System.nanoTime();
            for (Guarded g : OPEN) {
                long started = g.readStarted;
                if (started != 0 && now - started > g.deadlineNanos) {
                    g.stall();
                }
            }
        }
    }

    /** A channel whose read calls are watched. */
    static class Guarded implements ReadableByteChannel {
        final String name;
        final ReadableByteChannel delegate;
        final long deadlineNanos;
        /** When the read in progress started, or 0 when none is. */
        volatile long readStarted;
        volatile boolean stalled;

        Guarded(String name, ReadableByteChannel delegate, long deadlineNanos) {
            this.name = name;
            this.delegate = delegate;
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            readStarted = Math.max(1, System.nanoTime());
            try {
                return delegate.read(dst);
            } catch (IOException e) {
                throw stalled ? stallError(e) : e;
            } finally {
                readStarted = 0;
            }
        }

        IOException stallError(IOException cause) {
            return new IOException("tar shard '" + name + "': a read made no progress for "
                + deadlineNanos / 1_000_000 + " ms (a hung mount or a stalled stream?) and was abandoned; the rest of"
                + " the shard is skipped (raise LoaderBuilder.readTimeout or --read-timeout if the storage is just"
                + " slow)", cause);
        }

        void stall() {
            stalled = true;
            try {
                delegate.close(); // ends the blocked read (AsynchronousCloseException) where the kernel lets it
            } catch (IOException ignored) {
                // closing a channel whose read hung: the read's own error says what happened
            }
            OPEN.remove(this);
        }

        @Override
        public boolean isOpen() {
            return delegate.isOpen();
        }

        @Override
        public void close() throws IOException {
            OPEN.remove(this);
            delegate.close();
        }
    }

    /** A seekable channel whose read calls are watched (seeks pass through). */
    static final class GuardedSeekable extends Guarded implements SeekableByteChannel {
        private final SeekableByteChannel seekable;

        GuardedSeekable(String name, SeekableByteChannel delegate, long deadlineNanos) {
            super(name, delegate, deadlineNanos);
            this.seekable = delegate;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            throw new java.nio.channels.NonWritableChannelException();
        }

        @Override
        public long position() throws IOException {
            return seekable.position();
        }

        @Override
        public SeekableByteChannel position(long newPosition) throws IOException {
            seekable.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return seekable.size();
        }

        @Override
        public SeekableByteChannel truncate(long size) throws IOException {
            throw new java.nio.channels.NonWritableChannelException();
        }
    }
}
