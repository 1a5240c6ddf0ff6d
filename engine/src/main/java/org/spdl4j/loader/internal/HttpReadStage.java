package org.spdl4j.loader.internal;

import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.spdl4j.engine.source.http.HttpObjectFetcher;
import org.spdl4j.loader.SampleException;

/**
 * The read stage for http(s) URLs: starts an asynchronous fetch of the item's URL (no thread per request; the engine
 * keeps the stage's concurrency in flight) whose body lands in one pooled slab, and hands the item on with it.
 *
 * <p><b>Failure:</b> a fetch that fails after the fetcher's retries completes exceptionally (the engine counts it on
 * this stage and the run goes on) after the item was retired and the sample recorded as settled. <b>Allocation:</b>
 * the fetcher's per-request objects and one completion stage per sample: the async stage's contract.
 */
final class HttpReadStage implements Function<LoaderItem, CompletionStage<LoaderItem>> {
    private final HttpObjectFetcher fetcher;
    private final LoaderItemPool items;
    private final Progress progress;
    private final LoaderControl control;

    HttpReadStage(HttpObjectFetcher fetcher, LoaderItemPool items, Progress progress, LoaderControl control) {
        this.fetcher = fetcher;
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
            throw new SampleException(item.key, "has no URL; this loader fetches URLs (give local files to a loader "
                + "of files)", null);
        }
        return fetcher.apply(item.uri)
            .handle((sample, error) -> control.readDone(item, sample, error, items, progress));
    }
}
