package org.spdl4j.loader.internal;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.loader.ObjectStore;
import org.spdl4j.loader.SampleException;

/**
 * The read stage for whole objects of an {@link ObjectStore}: starts the store's asynchronous read of the item's
 * object into one pooled slab (the engine keeps the stage's concurrency in flight) and hands the item on with it.
 *
 * <p><b>Failure:</b> a read that fails after the store's retries completes exceptionally (the engine counts it on this
 * stage and the run goes on) after the item was retired and the sample recorded as settled. <b>Close:</b> owned by the
 * loader's runtime, closed after the pipeline and before the pools: it cancels the reads still in flight, which the
 * store's contract makes give their buffers back before the cancel returns. <b>Allocation:</b> the store's
 * per-request objects and one completion stage per sample: the async stage's contract.
 */
final class ObjectReadStage implements Function<LoaderItem, CompletionStage<LoaderItem>>, AutoCloseable {
    /** The longest {@link #close()} waits for actions on reads that completed as it began. */
    static final long CLOSE_WAIT_MILLIS = 5_000;
    private final ObjectStore store;
    private final SampleAllocator bytes;
    private final LoaderItemPool items;
    private final Progress progress;
    private final LoaderControl control;
    private final Set<CompletableFuture<Sample>> inFlight = ConcurrentHashMap.newKeySet();
    /**
     * The stages handed to the engine and not completed yet: a read can complete a moment before the engine's action
     * on it (which may give the bytes back to the pool) has run on the completing thread, so close waits for these.
     */
    private final Set<CompletableFuture<LoaderItem>> handedOut = ConcurrentHashMap.newKeySet();

    ObjectReadStage(ObjectStore store, SampleAllocator bytes, LoaderItemPool items, Progress progress,
                    LoaderControl control) {
        this.store = store;
        this.bytes = bytes;
        this.items = items;
        this.progress = progress;
        this.control = control;
    }

    @Override
    public CompletionStage<LoaderItem> apply(LoaderItem item) {
        if (item.epochEnd) {
            return java.util.concurrent.CompletableFuture.completedFuture(item); // an epoch's end mark
        }
        if (item.uri == null) {
            control.readFailed(item, items, progress);
            throw new SampleException(item.key, "names no object of " + store.describe(), null);
        }
        CompletableFuture<Sample> read;
        try {
            read = store.read(item.uri, bytes);
        } catch (RuntimeException | Error e) {
            control.readFailed(item, items, progress); // counted on this stage like a read that failed later
            throw e;
        }
        inFlight.add(read);
        CompletableFuture<LoaderItem> out = read.handle((sample, error) -> {
            inFlight.remove(read);
            return control.readDone(item, sample, error, items, progress);
        });
        handedOut.add(out);
        // Registered before the engine chains its action: a completing thread runs the later-registered action
        // first, so this removal marks the engine's action as done.
        out.whenComplete((i, e) -> handedOut.remove(out));
        return out;
    }

    /**
     * Cancels the reads in flight (their buffers go back to the pool before each cancel returns) and waits, at most
     * {@link #CLOSE_WAIT_MILLIS}, for the engine's actions on reads that completed just before.
     */
    @Override
    public void close() {
        for (CompletableFuture<Sample> read : inFlight) {
            read.cancel(false);
        }
        long deadline = System.nanoTime() + CLOSE_WAIT_MILLIS * 1_000_000L;
        while (!handedOut.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
