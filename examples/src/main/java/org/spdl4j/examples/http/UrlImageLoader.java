package org.spdl4j.examples.http;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.PooledSampleAllocator;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.engine.source.http.HttpObjectFetcher;
import org.spdl4j.engine.source.http.LargeBodies;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.examples.StoppedPipelines;
import org.spdl4j.examples.classify.SampleImageWriter;
import org.spdl4j.examples.image.BatchLoader;
import org.spdl4j.examples.slots.FetchStage;
import org.spdl4j.examples.slots.SlotBatchLoader;
import org.spdl4j.examples.slots.SlotLoaderOptions;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PerThreadImageDecoders;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.SystemProperties;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.ImageLayout;

/**
 * Image batches from HTTP(S) URLs: an {@link HttpObjectFetcher} fetches {@link HttpFetchSettings#maxInFlight()}
 * images at once, asynchronously (no thread per request), each body landing in one pooled off-heap slab; each
 * fetched image then gets its batch slot in order, and decode workers write resized, center-cropped RGB straight into
 * it. Batches are {@code [n, crop, crop, 3]} uint8, labels from the list.
 *
 * <pre>
 *  urls --> fetch (async, N in flight, retries; bytes -> pooled slab) --> assign (slot) --> decode x M (-> slot) --> batch
 * </pre>
 *
 * <p><b>Failures:</b> an image that cannot be fetched after the fetcher's retries (or at once, for a 4xx) is counted
 * and skipped, as is one that cannot be decoded; the run goes on ({@link #failedImages()}). <b>Memory:</b> encoded
 * bytes in flight are bounded by the pool (slabs for the slot table, the rings, the requests and the decoders); a
 * body larger than {@link #LARGEST_BODY} fails without retry. <b>Ownership:</b> batches belong to the consumer, which
 * closes each; {@link #close()} stops the pipeline, waits for requests still in flight, and frees the pools and
 * FFmpeg contexts. <b>Threading:</b> iterate from one thread.
 */
public final class UrlImageLoader implements BatchLoader {
    /**
     * The largest image accepted, in bytes; property {@code spdl4j.urls.largestBody} (at least 1; a value that does
     * not parse or is out of range fails this class's initialisation naming the property).
     */
    public static final int LARGEST_BODY =
            SystemProperties.intValue("spdl4j.urls.largestBody", 16 << 20, 1, Integer.MAX_VALUE);
    /** Slab size for typical encoded images (a 224-256 px JPEG is 10-60 KiB). */
    private static final int SMALL_SLAB = 128 * 1024;
    private static final int MEDIUM_SLAB = 1024 * 1024;
    /** Slabs of each ring between stages that can hold a fetched image (fetch -> assign, assign -> fill). */
    private static final int RING_SLOTS = 2 * 16;

    private final BufferPool bodies;
    private final HttpObjectFetcher fetcher;
    private final PerThreadImageDecoders decoders;
    private final SlotBatchLoader<Sample> loader;

    /**
     * Builds (does not start) the loader over one pass of the URLs, in order.
     *
     * @param name      pipeline name
     * @param urls      the images, iterated once
     * @param crop      output height and width
     * @param shortSide short side after resizing, before the center crop
     * @param batchSize images per batch
     * @param threads   decode threads
     * @param settings  requests in flight, retries, timeouts ({@code maxBodyBytes} is capped at {@link #LARGEST_BODY})
     */
    public UrlImageLoader(String name, Iterable<UrlList.Entry> urls, int crop, int shortSide, int batchSize,
                          int threads, HttpFetchSettings settings) {
        this(name, urls, crop, shortSide, batchSize, SlotLoaderOptions.defaults().withFillConcurrency(threads),
            OutputOrder.COMPLETION, settings);
    }

    /**
     * Builds (does not start) the loader over one pass of the URLs, running as the options say (decode threads =
     * their fill concurrency; every stage, the source and the consumer wait by their policy).
     *
     * @param name       pipeline name
     * @param urls       the images, iterated once
     * @param crop       output height and width
     * @param shortSide  short side after resizing, before the center crop
     * @param batchSize  images per batch
     * @param options    decode threads, batches in flight, wait policy
     * @param fetchOrder the order fetched images get their slots: {@code COMPLETION} (a slow request holds nothing
     *                   back) or {@code INPUT} (list order, the same batches run after run)
     * @param settings   requests in flight, retries, timeouts ({@code maxBodyBytes} is capped at {@link #LARGEST_BODY})
     */
    public UrlImageLoader(String name, Iterable<UrlList.Entry> urls, int crop, int shortSide, int batchSize,
                          SlotLoaderOptions options, OutputOrder fetchOrder, HttpFetchSettings settings) {
        int threads = options.fillConcurrency();
        int inFlight = options.batchesInFlight() * batchSize + RING_SLOTS + settings.maxInFlight() + threads + 4;
        // Up to 1 MB every image in flight can hold a slab: with INPUT order the fetch stage keeps finished bodies
        // until the oldest is done, and a smaller class could be held entirely by them (a stall until the acquire
        // timeout). Larger bodies share the two largest slabs: each takes one (LargeBodies: a body of unknown length
        // grows to it in one step), and with INPUT order they take them in list order, so none waits for a slab that
        // a younger body holds while it waits, held, behind the older one. Pages are touched only as used. A largest
        // body of 1 MB or less fits the classes below and needs no class of its own (one of the same size as another
        // would fail the pool's check).
        PoolConfig.Builder classes = PoolConfig.builder(name + "-fetched")
            .sizeClass(SMALL_SLAB, inFlight)
            .sizeClass(MEDIUM_SLAB, inFlight)
            .acquireTimeout(Duration.ofSeconds(60));
        if (LARGEST_BODY > MEDIUM_SLAB) {
            classes.sizeClass(LARGEST_BODY, 2);
        }
        BufferPool pool = BufferPool.open(classes.build());
        HttpObjectFetcher client = null;
        PerThreadImageDecoders perThread = null;
        try {
            client = new HttpObjectFetcher(new HttpFetchSettings(settings.maxInFlight(), settings.maxAttempts(),
                settings.attemptTimeout(), settings.connectTimeout(), settings.initialBackoff(), settings.maxBackoff(),
                Math.min(settings.maxBodyBytes(), LARGEST_BODY)), new PooledSampleAllocator(pool),
                new LargeBodies(MEDIUM_SLAB, fetchOrder == OutputOrder.INPUT));
            perThread = new PerThreadImageDecoders(MediaLimits.DEFAULT);
            BatchDescriptor layout = BatchDescriptor.images(batchSize, ImageLayout.NHWC, crop, crop, 3, DType.U8);
            HttpObjectFetcher started = client;
            FetchStage<UrlList.Entry, Sample> fetch = new FetchStage<>(entry -> fetch(started, entry),
                settings.maxInFlight(), Sample.class, fetchOrder);
            this.loader = new SlotBatchLoader<>(name, urls, fetch, layout,
                new SampleImageWriter(perThread, ImageSpec.centerCrop(shortSide, crop, PixelFormat.RGB24)),
                Sample::label, Sample::close, options, DirectMemoryAllocator.INSTANCE);
        } catch (RuntimeException | Error e) {
            // Nothing has started: free what was built so far (the fetcher owns a timer thread, the pool off-heap
            // memory), so a bad layout or name leaves nothing behind.
            if (perThread != null) {
                perThread.close();
            }
            if (client != null) {
                client.close();
            }
            pool.close();
            throw e;
        }
        this.bodies = pool;
        this.fetcher = client;
        this.decoders = perThread;
    }

    /** Starts one fetch; the delivered sample carries the list's label (a re-wrap that shares the field list). */
    private static CompletionStage<Sample> fetch(HttpObjectFetcher fetcher, UrlList.Entry entry) {
        return fetcher.apply(entry.uri()).thenApply(s -> entry.label() == Sample.NO_LABEL ? s
            : new Sample(s.key(), entry.label(), s.origin(), s.fields(), s.allocator()));
    }

    @Override
    public int label(Batch batch, int i) {
        return loader.label(batch, i);
    }

    /** {@return images that could not be fetched so far (after retries)} */
    public long fetchFailures() {
        return loader.fetchFailures();
    }

    @Override
    public long failedImages() {
        return loader.fetchFailures() + loader.fillFailures();
    }

    @Override
    public Throwable firstFailure() {
        return loader.firstFailure();
    }

    @Override
    public List<StageStats> stats() {
        return loader.stats();
    }

    /** {@return fetched-image slabs currently out (0 once every image was decoded and the run ended)} */
    public int leasesInUse() {
        return bodies.inUse();
    }

    /** {@return HTTP attempts made so far, retries included} */
    public long attemptsMade() {
        return fetcher.attemptsMade();
    }

    /** {@return the loader's pipeline: its spec (stages, options) and stats} */
    public Pipeline<Batch> pipeline() {
        return loader.pipeline();
    }

    @Override
    public Iterator<Batch> iterator() {
        return loader.iterator();
    }

    @Override
    public void close() {
        loader.close();
        if (!StoppedPipelines.mayFree(loader.pipeline(), "URL image loader '" + loader.pipeline().spec().name()
                + "'", "its HTTP fetcher, FFmpeg decoders and body pool")) {
            return;
        }
        fetcher.close(); // aborts requests and waits (bounded) for the client: bodies are back before the pool closes
        decoders.close();
        bodies.close();
    }
}
