package org.spdl4j.loader.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens files for virtual threads on platform threads. The JDK does not hand a virtual thread's carrier back while it
 * sits in the {@code open} system call: a FIFO with no writer or a hung network mount keeps the carrier, and with as
 * many such opens as cores (two on a small machine) every virtual thread of the JVM stops, the other reads included.
 * Here the open runs on a platform thread of its own while the virtual thread waits unmounted; a hung open then costs
 * one parked platform thread until it returns, and the read it belongs to fails at its deadline like any other.
 * Reading an open channel needs no such help: the JDK compensates for blocking file reads.
 *
 * <p><b>Threading:</b> thread-safe; one process-wide pool of daemon threads, created as opens need them (a thread per
 * open in flight) and ended after a second idle (a loader reading keeps them busy; one that stopped leaves none). <b>Allocation:</b> a future per open, on the read stage (a file read is
 * tens of microseconds at the least; the hop costs a few).
 */
final class PlatformOpen {
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService OPENERS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 1, TimeUnit.SECONDS,
        new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "spdl4j-file-open-" + THREADS.incrementAndGet());
            t.setDaemon(true); // a hung open must not keep the JVM alive
            return t;
        });

    private PlatformOpen() {
    }

    /**
     * Opens a file for reading: directly on a platform thread, through an opener thread on a virtual one.
     *
     * @param file the file
     * @return the open channel, owned by the caller
     * @throws IOException when it cannot be opened, or ({@link InterruptedIOException}) when the waiting thread was
     *                     interrupted (its read timed out or the loader closed): a channel opened after that is
     *                     closed at once
     */
    static FileChannel open(Path file) throws IOException {
        if (!Thread.currentThread().isVirtual()) {
            return FileChannel.open(file, StandardOpenOption.READ);
        }
        CompletableFuture<FileChannel> opened = submit(file);
        try {
            return opened.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            opened.thenAccept(PlatformOpen::closeQuietly); // nobody will read it: close it once the open returns
            throw new InterruptedIOException("interrupted while opening " + file
                + " (its read ran past its deadline or the loader closed; the open may still hang in the kernel)");
        } catch (ExecutionException e) {
            throw failure(e, file);
        }
    }

    /**
     * Opens a file for reading on an opener thread, waiting at most {@code deadline}: for platform threads that must
     * not hang in {@code open} (the loader's source thread opening a tar shard).
     *
     * @param file     the file
     * @param deadline the longest to wait
     * @return the open channel, owned by the caller
     * @throws IOException when it cannot be opened, when the open did not return in time (the channel, should the
     *                     open return later, is closed at once), or when the waiting thread was interrupted
     */
    static FileChannel openWithin(Path file, Duration deadline) throws IOException {
        CompletableFuture<FileChannel> opened = submit(file);
        try {
            return opened.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            opened.thenAccept(PlatformOpen::closeQuietly);
            throw new IOException("opening " + file + " did not return within " + deadline.toMillis() + " ms (a FIFO"
                + " without a writer, a hung mount?); raise LoaderBuilder.readTimeout or --read-timeout if the storage"
                + " is just slow");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            opened.thenAccept(PlatformOpen::closeQuietly);
            throw new InterruptedIOException("interrupted while opening " + file);
        } catch (ExecutionException e) {
            throw failure(e, file);
        }
    }

    private static CompletableFuture<FileChannel> submit(Path file) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return FileChannel.open(file, StandardOpenOption.READ);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, OPENERS);
    }

    /** The open's own failure, as the caller would have seen it opening the file itself. */
    private static IOException failure(ExecutionException e, Path file) {
        Throwable cause = e.getCause();
        if (cause instanceof UncheckedIOException io) {
            return io.getCause();
        }
        if (cause instanceof RuntimeException r) {
            throw r;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IOException("opening " + file + " failed", cause);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // a channel nobody read: nothing to report
        }
    }
}
