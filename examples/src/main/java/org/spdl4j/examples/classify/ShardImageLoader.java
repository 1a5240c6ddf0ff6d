package org.spdl4j.examples.classify;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.source.EpochIterable;
import org.spdl4j.engine.source.EpochSource;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.RemainderPolicy;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.tar.ShardOpener;
import org.spdl4j.engine.source.tar.WebDatasetSource;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.examples.StoppedPipelines;
import org.spdl4j.examples.image.BatchLoader;
import org.spdl4j.examples.slots.SlotBatchLoader;
import org.spdl4j.examples.slots.SlotLoaderOptions;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PerThreadImageDecoders;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.ImageLayout;

/**
 * Image batches from WebDataset tar shards: the shard source streams samples whose bytes land in pooled off-heap
 * memory ({@link LeaseSampleAllocator}); each sample gets its batch slot in order, and decode workers write resized,
 * center-cropped RGB straight into it. Batches are {@code [n, crop, crop, 3]} uint8, labels from the {@code cls}
 * members.
 *
 * <pre>
 *  shards --(source thread: read members into leases)--> assign (slot) --> decode x N (in place -> slot) --> batch
 * </pre>
 *
 * <p><b>Ownership:</b> batches belong to the consumer, which closes each. {@link #close()} stops everything and frees
 * the pools and FFmpeg contexts. <b>Threading:</b> iterate from one thread.
 */
public final class ShardImageLoader implements BatchLoader {
    private final LeaseSampleAllocator bytes;
    private final PerThreadImageDecoders decoders;
    private final SlotBatchLoader<Sample> loader;

    /**
     * Builds (does not start) the loader over one pass of the shards, in order.
     *
     * @param name      pipeline name
     * @param shards    the tar shards
     * @param crop      output height and width
     * @param shortSide short side after resizing, before the center crop
     * @param batchSize images per batch
     * @param threads   decode threads
     */
    public ShardImageLoader(String name, List<Path> shards, int crop, int shortSide, int batchSize, int threads) {
        this(name, shards, crop, shortSide, batchSize, SlotLoaderOptions.defaults().withFillConcurrency(threads));
    }

    /**
     * Builds (does not start) the loader over one pass of the shards, in order, running as the options say (decode
     * threads = their fill concurrency; every stage, the shard reader and the consumer wait by their policy).
     *
     * @param name      pipeline name
     * @param shards    the tar shards
     * @param crop      output height and width
     * @param shortSide short side after resizing, before the center crop
     * @param batchSize images per batch
     * @param options   decode threads, batches in flight, wait policy
     */
    public ShardImageLoader(String name, List<Path> shards, int crop, int shortSide, int batchSize,
                            SlotLoaderOptions options) {
        this(name, shards, crop, shortSide, batchSize, options, RankInfo.SINGLE);
    }

    /**
     * Builds (does not start) the loader over this rank's share of the shards (WebDataset's split: whole shards per
     * rank), in order.
     *
     * @param name      pipeline name
     * @param shards    the tar shards of every rank
     * @param crop      output height and width
     * @param shortSide short side after resizing, before the center crop
     * @param batchSize images per batch
     * @param options   decode threads, batches in flight, wait policy
     * @param rank      this process's rank and the world size ({@link RankInfo#fromEnvironment()})
     */
    public ShardImageLoader(String name, List<Path> shards, int crop, int shortSide, int batchSize,
                            SlotLoaderOptions options, RankInfo rank) {
        int threads = options.fillConcurrency();
        LeaseSampleAllocator pool = new LeaseSampleAllocator(name + "-encoded",
            options.batchesInFlight() * batchSize + 2 * 16 + threads + 4); // table + rings + workers + slack
        PerThreadImageDecoders perThread = null;
        try {
            perThread = new PerThreadImageDecoders(MediaLimits.DEFAULT);
            WebDatasetSource source = new WebDatasetSource(shards.stream().map(Path::toString).toList(),
                ShardOpener.LOCAL_FILES, rank, 0, false, RemainderPolicy.PAD, pool,
                EpochSource.UNKNOWN_LENGTH);
            BatchDescriptor layout = BatchDescriptor.images(batchSize, ImageLayout.NHWC, crop, crop, 3, DType.U8);
            this.loader = new SlotBatchLoader<>(name, EpochIterable.of(source), layout,
                new SampleImageWriter(perThread, ImageSpec.centerCrop(shortSide, crop, PixelFormat.RGB24)),
                Sample::label, Sample::close, options, DirectMemoryAllocator.INSTANCE);
        } catch (RuntimeException | Error e) {
            // Nothing has started: what was built so far is ours alone to free (a bad layout or name must not
            // leave an off-heap pool behind).
            if (perThread != null) {
                perThread.close();
            }
            pool.close();
            throw e;
        }
        this.bytes = pool;
        this.decoders = perThread;
    }

    /**
     * The label of sample {@code i} of a batch (valid until the batch is closed).
     *
     * @param batch the batch
     * @param i     sample index
     * @return its {@code cls} label, or {@link Sample#NO_LABEL}
     */
    @Override
    public int label(Batch batch, int i) {
        return loader.label(batch, i);
    }

    /** {@return samples that failed to decode so far} */
    public long decodeFailures() {
        return loader.fillFailures();
    }

    @Override
    public long failedImages() {
        return loader.fillFailures();
    }

    @Override
    public Throwable firstFailure() {
        return loader.firstFailure();
    }

    @Override
    public List<StageStats> stats() {
        return loader.stats();
    }

    /** {@return sample byte leases currently out (0 once every sample was decoded and the run ended)} */
    public int leasesInUse() {
        return bytes.inUse();
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
        if (!StoppedPipelines.mayFree(loader.pipeline(), "shard image loader '" + loader.pipeline().spec().name()
                + "'", "its FFmpeg decoders and encoded-bytes pool")) {
            return;
        }
        decoders.close();
        bytes.close();
    }
}
