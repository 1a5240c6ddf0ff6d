package org.spdl4j.examples.image;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.examples.report.JfrTasks;
import org.spdl4j.examples.report.TaskTrace;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PerThreadImageDecoders;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.ImageLayout;

/**
 * The image pipeline: files -> read (virtual threads, bytes into pooled off-heap memory) -> assign (each image its
 * batch slot, in order) -> decode (FFmpeg + one swscale pass straight into the slot) -> batches of
 * {@code [n, crop, crop, 3]} uint8 RGB, NHWC, in one off-heap lease each.
 *
 * <p>Copies per image: storage to pooled bytes (one), decoder to its batch slot (one). Nothing else touches pixels.
 *
 * <p><b>Ownership:</b> each {@link Batch} the iteration returns belongs to the consumer, which must {@link
 * Batch#close()} it (its memory goes back to the pool; at most {@code batchesInFlight} batches exist, so a consumer
 * that keeps them stalls the loader). {@link #close()} stops the pipeline, gives back what every undelivered image
 * and batch holds (the engine's discard hook, {@link UndeliveredItemReleaser}), and frees every pool and FFmpeg
 * context: closing mid-epoch leaks nothing, as long as the consumer closed the batches it took.
 *
 * <p><b>Bad input:</b> an image that cannot be read or decoded fails alone (a {@link org.spdl4j.media.MediaException}
 * naming the file, logged); its batch is published without it and the epoch goes on. {@link #failedImages()} counts
 * them.
 * <b>Threading:</b> iterate from one thread.
 */
public final class ImageBatchLoader implements BatchLoader {
    private static final int RING = 16;
    private static final String READ_STAGE = "read";
    private final ImageLoaderOptions options;
    private final BufferPool bytesPool;
    private final BufferPool batchPool;
    private final ImageItemPool items;
    private final LabelRing labels;
    private final BatchAssembler assembler;
    private final PerThreadImageDecoders decoders;
    private final DecodeStage decode;
    private final Pipeline<Batch> pipeline;

    /**
     * Builds (does not start) the loader.
     *
     * @param name           pipeline name (thread names, stats)
     * @param files          the images, in the order to load them (a sampler's order for one epoch, say)
     * @param options        how it runs
     * @param batchAllocator where batch memory comes from: direct memory, or pinned memory for fast GPU copies
     * @param trace          records task spans of the read and decode stages, or {@code null} for none
     */
    public ImageBatchLoader(String name, Iterable<FileItem> files, ImageLoaderOptions options,
                            MemoryAllocator batchAllocator, TaskTrace trace) {
        this.options = options;
        int itemsInFlight = options.readConcurrency() + options.decodeConcurrency() + 3 * RING + 4;
        this.items = new ImageItemPool(itemsInFlight);
        this.bytesPool = BufferPool.open(PoolConfig.builder(name + "-encoded")
            .sizeClass(128 * 1024, itemsInFlight)
            .sizeClass(1024 * 1024, Math.max(4, itemsInFlight / 4))
            .sizeClass(4 * 1024 * 1024, 4)
            .sizeClass(32 * 1024 * 1024, 1)
            .acquireTimeout(Duration.ofSeconds(60))
            .build());
        BatchDescriptor layout = BatchDescriptor.images(options.batchSize(), ImageLayout.NHWC, options.cropSize(),
            options.cropSize(), 3, DType.U8);
        this.batchPool = BufferPool.open(PoolConfig.builder(name + "-batches").allocator(batchAllocator).dmaAligned()
            .sizeClass(layout.batchBytes(), options.batchesInFlight()).acquireTimeout(Duration.ofSeconds(600)).build());
        this.assembler = BatchAssembler.builder(batchPool, layout).dropLast(options.dropLast())
            .batchesInFlight(options.batchesInFlight()).acquireTimeout(Duration.ofSeconds(600)).build();
        this.labels = new LabelRing(options.batchesInFlight() * options.batchSize());
        this.decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT);
        ImageSpec spec = ImageSpec.centerCrop(options.shortSide(), options.cropSize(), PixelFormat.RGB24);
        this.decode = new DecodeStage(decoders, spec, items);
        SlotAssigner assign = new SlotAssigner(assembler, labels, items);
        StageOptions base = StageOptions.defaults().withWaitPolicy(options.waitPolicy()).withRingCapacity(RING)
            .withOrder(options.order());
        Function<FileItem, ImageItem> read = new ReadStage(bytesPool, items);
        Function<ImageItem, Batch> decodeFn = decode;
        if (trace != null) {
            read = trace.wrap(READ_STAGE, read);
            decodeFn = trace.wrap("decode", decodeFn);
        }
        read = JfrTasks.wrap(READ_STAGE, read); // a JFR recording shows each task; nearly free when not recording
        decodeFn = JfrTasks.wrap("decode", decodeFn);
        this.pipeline = PipelineBuilder.fromIterable(files).named(name).sourceWaitPolicy(options.waitPolicy())
            .onDiscard(new UndeliveredItemReleaser(items))
            .pipeVirtual(READ_STAGE, read, base.withConcurrency(options.readConcurrency()))
            .aggregate("assign", () -> assign, base.withConcurrency(1))
            .pipe("decode", decodeFn, base.withConcurrency(options.decodeConcurrency()))
            .sink(options.bufferSize(), options.waitPolicy())
            .build();
    }

    /**
     * Builds a loader with batch memory from plain direct memory.
     *
     * @param name    pipeline name
     * @param files   the images
     * @param options how it runs
     * @return the loader (not started)
     */
    public static ImageBatchLoader of(String name, Iterable<FileItem> files, ImageLoaderOptions options) {
        return new ImageBatchLoader(name, files, options, DirectMemoryAllocator.INSTANCE, null);
    }

    /** {@return the running pipeline (stats, next with timeout)} */
    public Pipeline<Batch> pipeline() {
        return pipeline;
    }

    @Override
    public List<StageStats> stats() {
        return pipeline.stats();
    }

    /** {@return images that failed to decode (each dropped from its batch) so far} */
    public long decodeFailures() {
        return decode.failures();
    }

    /** {@return images dropped so far for any reason: unreadable (read stage) or undecodable (decode stage)} */
    @Override
    public long failedImages() {
        long readFailures = 0;
        for (StageStats s : pipeline.stats()) {
            if (s.stage().equals(READ_STAGE)) {
                readFailures += s.failures();
            }
        }
        return readFailures + decode.failures();
    }

    /** {@return the options it runs with} */
    public ImageLoaderOptions options() {
        return options;
    }

    /**
     * The label of sample {@code i} of a batch this loader produced (valid until the batch is closed).
     *
     * @param batch the batch
     * @param i     the sample index, below {@code batch.size()}
     * @return its label (class index)
     */
    @Override
    public int label(Batch batch, int i) {
        return labels.get(batch.sequence(i));
    }

    @Override
    public Iterator<Batch> iterator() {
        return pipeline.iterator();
    }

    @Override
    public void close() {
        pipeline.close();
        assembler.close();
        decoders.close();
        bytesPool.close();
        batchPool.close();
    }
}
