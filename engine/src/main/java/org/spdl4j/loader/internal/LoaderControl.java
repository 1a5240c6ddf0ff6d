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

    /** An item (or an end mark) reached the assign stage. The assign stage's thread. */
    public void passed() {
        if (countPassed) {
            passed.incrementAndGet();
        }
    }

    /**
     * The engine's word that a task failed (its failure listener, once per failure, timeouts included): an item that
     * failed in the read or assign stage will never reach the assign stage, so it has passed as far as the source's
     * wait at an epoch's end is concerned. Counted here, once, and not where a read stage settles the item: a read
     * that times out is counted at its timeout, and its late result, settled later, is not counted again.
     *
     * @param stage the failed stage's name
     * @param item  the item
     */
    public void failed(String stage, Object item) {
        if (countPassed && item instanceof LoaderItem i && !i.epochEnd
                && (LoaderRuntime.READ_STAGE.equals(stage) || LoaderRuntime.ASSIGN_STAGE.equals(stage))) {
            passed.incrementAndGet();
        }
    }

    /**
     * The source thread, at an epoch's end: waits until {@code sent} items have passed (reached the assign stage, or
     * failed before it), so that the epoch's last batch is sealed with every sample of the epoch in it and none of
     * the next. As long as it takes (a consumer that pauses, a slow fetch retrying): alignment does not depend on
     * timing. Every {@code warnEvery} of waiting, {@code stillWaiting} is told how many are still out.
     *
     * @param sent         items the source has sent so far
     * @param warnEvery    how often to say it still waits
     * @param stillWaiting told the count of items not yet passed
     * @return true when every item passed; false when the loader closes or the thread is interrupted
     */
    public boolean awaitPassed(long sent, java.time.Duration warnEvery, java.util.function.LongConsumer stillWaiting) {
        long next = System.nanoTime() + warnEvery.toNanos();
        int idle = 0;
        for (long p = passed.get(); p < sent; p = passed.get()) {
            if (closing || Thread.currentThread().isInterrupted()) {
                return false;
            }
            if (System.nanoTime() - next > 0) {
                stillWaiting.accept(sent - p);
                next = System.nanoTime() + warnEvery.toNanos();
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
