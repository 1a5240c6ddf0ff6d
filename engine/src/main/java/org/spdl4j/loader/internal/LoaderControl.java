package org.spdl4j.loader.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the loader is closing: a task that fails because the loader closed under it (an interrupted read) is not a
 * failure of its sample, and is not recorded as settled, so a resumed run reads it again.
 *
 * <p><b>Threading:</b> set once by the closing thread before it stops the pipeline; read by any stage (volatile).
 */
public final class LoaderControl {
    private volatile boolean closing;
    /** Counts items that reached the assign stage or were settled before it; only with epoch-aligned batches. */
    private final boolean countPassed;
    private final AtomicLong passed = new AtomicLong();

    /** A loader that is not closing, its batches not aligned to epochs. */
    public LoaderControl() {
        this(false);
    }

    /**
     * A loader that is not closing.
     *
     * @param epochAligned whether batches are aligned to epochs: the source then waits at each epoch's end until every
     *                     item it sent has reached the assign stage or failed before it ({@link #awaitPassed})
     */
    public LoaderControl(boolean epochAligned) {
        this.countPassed = epochAligned;
    }

    /** An item reached the assign stage, or was settled before it (read stages, the discard hook). Any thread. */
    public void passed() {
        if (countPassed) {
            passed.incrementAndGet();
        }
    }

    /**
     * The source thread, at an epoch's end: waits until {@code sent} items have passed ({@link #passed}), so that the
     * epoch's last batch can be sealed with every sample of the epoch in it. Bounded: an item whose read hangs past
     * {@code bound} (a task the engine failed and that never returns) is waited for no longer.
     *
     * @param sent  items the source has sent so far
     * @param bound the longest wait
     * @return true when every item passed; false when the bound passed first or the loader closes
     */
    public boolean awaitPassed(long sent, java.time.Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        int idle = 0;
        while (passed.get() < sent) {
            if (closing || System.nanoTime() - deadline > 0 || Thread.currentThread().isInterrupted()) {
                return false;
            }
            org.spdl4j.offheap.Backoff.idle(idle++, java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1));
        }
        return true;
    }

    /** Marks the loader as closing (before its pipeline is stopped). */
    public void closing() {
        closing = true;
    }

    /** {@return whether the loader is closing} */
    public boolean isClosing() {
        return closing;
    }

    /**
     * Records a sample whose read failed as settled (it would fail again), unless the loader is closing: then the
     * close failed it, and a resumed run reads it again. Every read stage's failure path.
     *
     * @param item     the sample
     * @param progress where settled samples are recorded
     */
    public void readFailed(LoaderItem item, Progress progress) {
        if (!closing) {
            progress.settle(item.epoch, item.position);
            passed();
        }
    }

    /**
     * A failed read of an item the read stage took from the pool: the item retired, the failure recorded as
     * {@link #readFailed(LoaderItem, Progress)} does.
     *
     * @param item     the sample
     * @param items    the pool the item goes back to
     * @param progress where settled samples are recorded
     */
    public void readFailed(LoaderItem item, LoaderItemPool items, Progress progress) {
        items.retire(item);
        readFailed(item, progress);
    }

    /**
     * Ends an asynchronous read, as its future's {@code handle} action: the item carrying the sample (and its first
     * field), or the failure recorded ({@link #readFailed(LoaderItem, LoaderItemPool, Progress)}) and rethrown.
     *
     * @param item     the sample being read
     * @param sample   what the read gave, or null when it failed
     * @param error    why it failed, or null
     * @param items    the pool the item goes back to on failure
     * @param progress where settled samples are recorded
     * @return the item, its sample set
     * @throws CompletionException the failure
     */
    public LoaderItem readDone(LoaderItem item, org.spdl4j.engine.source.Sample sample, Throwable error,
                               LoaderItemPool items, Progress progress) {
        if (error != null) {
            readFailed(item, items, progress);
            throw error instanceof CompletionException c ? c : new CompletionException(error);
        }
        item.sample = sample;
        item.field = sample.fields().isEmpty() ? null : sample.fields().get(0);
        return item;
    }
}
