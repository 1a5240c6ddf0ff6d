package org.spdl4j.examples.image;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.examples.report.JfrTasks;
import org.spdl4j.examples.report.TaskTrace;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PerThreadImageDecoders;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.ImageLayout;

/**
 * The image pipeline's shared part, owned by one loader: the pools, decoders, batch assembler and batch labels, and
 * the stages files -> read -> assign -> decode that turn files into off-heap {@link Batch}es. {@link ImageBatchLoader}
 * ends them with a sink; {@link DeviceImageLoader} adds a host-to-device stage first.
 *
 * <p><b>Ownership:</b> {@link #close()} frees the assembler, decoders and both pools; call it after the pipeline built
 * on these stages has been closed. <b>Threading:</b> build from one thread; the stages then run on the engine's.
 */
final class ImageStages implements AutoCloseable {
    static final String READ_STAGE = "read";
    static final String DECODE_STAGE = "decode";
    private static final int RING = 16;
    /** What {@link #close()} frees, for the message when a loader must leak it instead. */
    static final String RESOURCES = "its batch assembler, FFmpeg decoders and the encoded-bytes and batch pools";

    private final ImageLoaderOptions options;
    private final BufferPool bytesPool;
    private final BufferPool batchPool;
    private final ImageItemPool items;
    private final BatchLabels labels;
    private final BatchAssembler assembler;
    private final PerThreadImageDecoders decoders;
    private final DecodeStage decode;
    private final StageOptions base;

    /**
     * Opens the pools and decoders.
     *
     * @param name           prefix of the pools' names
     * @param options        how it runs
     * @param batchAllocator where batch memory comes from (direct memory, or a device's pinned host allocator)
     */
    ImageStages(String name, ImageLoaderOptions options, MemoryAllocator batchAllocator) {
        this.options = options;
        // items live from the source to the end of decode: three rings (source->read->assign->decode), the tasks
        // in flight in read and decode, one in the source's and one in the assigner's hand, and slack
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
        this.labels = new BatchLabels(options.batchesInFlight(), options.batchSize());
        this.decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT);
        this.decode = new DecodeStage(decoders, options.imageSpec(), items);
        this.base = StageOptions.defaults().withWaitPolicy(options.waitPolicy()).withRingCapacity(RING)
            .withOrder(options.order());
    }

    /**
     * The stages up to decode, with the discard hook that gives back what undelivered items hold.
     *
     * @param name  pipeline name (thread names, stats)
     * @param files the images, in load order, with their epochs (for augmentation seeds)
     * @param trace records task spans of the read and decode stages, or {@code null} for none
     * @return the builder, yielding batches; the caller adds its own stages and the sink
     */
    PipelineBuilder<Batch> stages(String name, EpochFiles files, TaskTrace trace) {
        SlotAssigner assign = new SlotAssigner(assembler, labels, items);
        Function<ImageItem, ImageItem> read = new ReadStage(bytesPool, items);
        Function<ImageItem, Batch> decodeFn = decode;
        if (trace != null) {
            read = trace.wrap(READ_STAGE, read);
            decodeFn = trace.wrap(DECODE_STAGE, decodeFn);
        }
        read = JfrTasks.wrap(READ_STAGE, read); // a JFR recording shows each task; nearly free when not recording
        decodeFn = JfrTasks.wrap(DECODE_STAGE, decodeFn);
        Consumer<Object> releaser = new UndeliveredItemReleaser(items);
        boolean seeded = options.augment() != null;
        return PipelineBuilder.<ImageItem>fromSource(() -> new ImageItemSource(files, items, seeded,
                options.augmentSeed()))
            .named(name).sourceWaitPolicy(options.waitPolicy())
            .onDiscard(releaser)
            .pipeVirtual(READ_STAGE, read, base.withConcurrency(options.readConcurrency()))
            .aggregate("assign", () -> assign, base.withConcurrency(1))
            .pipe(DECODE_STAGE, decodeFn, base.withConcurrency(options.decodeConcurrency()));
    }

    /** {@return the stage options every stage starts from (wait policy, ring size, order)} */
    StageOptions base() {
        return base;
    }

    /** {@return images that failed to decode so far} */
    long decodeFailures() {
        return decode.failures();
    }

    /**
     * Images dropped so far for any reason: unreadable (read stage failures) or undecodable.
     *
     * @param stats the pipeline's stage statistics
     * @return the count
     */
    long failedImages(Iterable<StageStats> stats) {
        long readFailures = 0;
        for (StageStats s : stats) {
            if (s.stage().equals(READ_STAGE)) {
                readFailures += s.failures();
            }
        }
        return readFailures + decode.failures();
    }

    /**
     * The label of sample {@code i} of a batch (valid until the batch is closed).
     *
     * @param batch the batch
     * @param i     the sample index
     * @return its label
     */
    int label(Batch batch, int i) {
        return labels.get(batch, i);
    }

    @Override
    public void close() {
        assembler.close();
        decoders.close();
        bytesPool.close();
        batchPool.close();
    }
}
