package org.spdl4j.loader.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.source.LargeBufferTurns;
import org.spdl4j.loader.SampleException;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;

/**
 * The read stage for local files: reads an item's file into a pooled off-heap lease (the one copy from storage), on a
 * virtual thread (the file opened on a platform thread: {@link PlatformOpen}). An item of a decoder that {@link
 * org.spdl4j.offheap.batch.SlotDecoder#readsFiles() reads files itself}, and a tar member of a mixture (its bytes read
 * on the source thread, {@link MixedEntries}), passes through unread.
 *
 * <p><b>Allocation:</b> the JDK's file API allocates a channel and a ByteBuffer view per file; that is the cost of
 * the system call, not of the engine, and it stays on the I/O stage. The bytes themselves land in pooled memory.
 * <b>Failure:</b> an unreadable file throws (the engine counts the failure, logs it with the item and drops it)
 * after giving back the lease, retiring the item ({@link LoaderItemPool#retire}: it keeps its key, so the engine's
 * log line names it) and recording the sample as settled (it would fail again), so nothing leaks: an I/O error as
 * {@link UncheckedIOException} ({@code read FILE: no such file}), an empty file or one larger than the pool's largest
 * buffer as a {@link SampleException} naming the file.
 */
final class FileReadStage implements Function<LoaderItem, LoaderItem> {
    private static final Logger LOG = LoggerFactory.getLogger(FileReadStage.class);
    /** A read never gives up its turn: it needs its buffer whatever happens to the others. */
    private static final BooleanSupplier NEVER_STOP = () -> false;
    private final BufferPool bytesPool;
    private final LoaderItemPool items;
    private final LargeBufferTurns turns;
    private final long plentifulBytes;
    private final boolean decoderReadsFiles;
    private final Progress progress;
    private final LoaderControl control;

    /**
     * A read stage.
     *
     * @param bytesPool      where the bytes go
     * @param items          the item pool (failed items are retired into it)
     * @param turns          with INPUT order, the turns in which large reads take their buffers (each item's ticket
     *                       opened by the source, passed here once the read has its buffer or failed without one;
     *                       a wait past the turns' bound logs and reads out of turn, an interrupt fails the read);
     *                       else {@code null}
     * @param plentifulBytes the largest file whose buffer classes hold a slab for every item in flight: larger ones
     *                       wait for their turn
     * @param decoderReadsFiles whether the decoder opens files itself (items pass through unread)
     * @param progress       where a failed sample is recorded as settled
     * @param control        whether the loader is closing (a read failed by the close is no sample's failure)
     */
    FileReadStage(BufferPool bytesPool, LoaderItemPool items, LargeBufferTurns turns, long plentifulBytes,
                  boolean decoderReadsFiles, Progress progress, LoaderControl control) {
        this.bytesPool = bytesPool;
        this.items = items;
        this.turns = turns;
        this.plentifulBytes = plentifulBytes;
        this.decoderReadsFiles = decoderReadsFiles;
        this.progress = progress;
        this.control = control;
    }

    @Override
    public LoaderItem apply(LoaderItem item) {
        if (item.epochEnd) {
            return item; // an epoch's end mark, for the assign stage (no ticket: the source opened none)
        }
        long ticket = item.ticket;
        if (decoderReadsFiles || item.sample != null) { // a tar member of a mixture holds its bytes already
            if (turns != null) {
                turns.pass(ticket);
            }
            return item;
        }
        Path file = item.path;
        if (file == null) {
            if (turns != null) {
                turns.pass(ticket);
            }
            failed(item);
            throw new SampleException(item.key, "has no local file; this loader reads files (give URLs to a loader of "
                + "URLs)", null);
        }
        boolean turnPassed = turns == null;
        Lease lease = null;
        try (FileChannel channel = PlatformOpen.open(file)) { // never FileChannel.open on a virtual thread
            long size = channel.size();
            if (size == 0 || size > bytesPool.maxSlabBytes()) {
                throw new SampleException(item.key, size == 0 ? "empty file (0 bytes)" : "file of "
                    + size + " B is larger than the largest buffer of pool '" + bytesPool.name() + "' ("
                    + bytesPool.maxSlabBytes() + " B); re-encode or skip this sample", null);
            }
            turnPassed = true; // acquireInTurn passes it, whatever happens there
            lease = acquireInTurn((int) size, ticket, file);
            ByteBuffer dst = lease.byteBuffer().limit((int) size); // the slab may be larger than the file
            while (dst.hasRemaining()) {
                if (channel.read(dst) < 0) {
                    throw new IOException("file shrank while reading: " + dst.position() + " of " + size + " B");
                }
            }
            item.lease = lease;
            item.leaseLength = (int) size;
            return item;
        } catch (IOException | RuntimeException | Error e) { // an Error too: the lease and the item go back first
            if (lease != null) {
                // Also when the read succeeded and only closing the channel failed: the item must not keep the lease
                // it no longer owns (retire refuses an item holding bytes, which would hide this error).
                item.lease = null;
                item.leaseLength = 0;
                lease.release();
            }
            // Retired, not given back: the engine logs the failure with this item after we throw, and a pooled item
            // could already carry another image by then. A fresh one takes its place in the pool.
            items.retire(item);
            failed(item);
            if (e instanceof IOException io) {
                throw new UncheckedIOException("read " + file + ": " + IoMessages.reason(io), io);
            }
            if (e instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) e;
        } finally {
            if (!turnPassed) {
                turns.pass(ticket); // failed before taking a buffer: younger large reads need not wait for this one
            }
        }
    }

    /** Takes the buffer; a large one, with INPUT order, only once every older read has its own (LargeBufferTurns). */
    private Lease acquireInTurn(int size, long ticket, Path file) {
        if (turns == null) {
            return acquire(size);
        }
        try {
            if (size > plentifulBytes) {
                switch (turns.awaitTurn(ticket, NEVER_STOP)) {
                    case TIMED_OUT -> LOG.warn("read of {}: older reads still hold their turn after the turns' bound "
                        + "(the pool's acquire timeout); taking a buffer out of input order", file);
                    case INTERRUPTED -> throw new IllegalStateException("read of " + file + " interrupted "
                        + "while waiting for older reads to take their buffers (the interrupt is kept)");
                    case TURN_CAME, STOPPED, CLOSED -> { } // STOPPED cannot happen; CLOSED: no order left to keep
                }
            }
            return acquire(size);
        } finally {
            turns.pass(ticket);
        }
    }

    /** Records a sample that failed as settled, unless the loader is closing (then it is read again on resume). */
    private void failed(LoaderItem item) {
        control.readFailed(item, progress);
    }

    /**
     * A slab for {@code size} bytes: of the smallest class that fits if one is free now, else of a larger class
     * that has one, else (every class that fits is empty) the smallest, waiting. Falling back keeps a read from
     * waiting on slabs that reads queued behind it hold (INPUT order holds finished reads until the oldest is done).
     */
    private Lease acquire(int size) {
        for (long s = size; s <= bytesPool.maxSlabBytes(); s *= 2) {
            Lease lease = bytesPool.tryAcquire((int) s);
            if (lease != null) {
                return lease;
            }
        }
        return bytesPool.acquire(size);
    }
}
