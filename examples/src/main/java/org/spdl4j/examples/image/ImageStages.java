package org.spdl4j.examples.image;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import org.spdl4j.cuda.DeviceBatch;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.source.LargeBufferTurns;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.examples.report.JfrTasks;
import org.spdl4j.examples.report.TaskTrace;
import org.spdl4j.examples.slots.SlotStages;
import org.spdl4j.examples.slots.UndeliveredSlotReleaser;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PerThreadImageDecoders;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.ImageLayout;

/**
 * The image pipeline's shared part, owned by one loader: the encoded-bytes pool, item pool and decoders, and the
 * stages files -> read -> assign -> decode that turn files into off-heap {@link Batch}es. Assign and decode are the
 * generic {@link SlotStages} (one slot table for items and labels) with {@link DecodeWriter} as the writer and the
 * fill stage named {@value #DECODE_STAGE}; read is the image loader's own front stage. {@link ImageBatchLoader} ends
 * them with a sink; {@link DeviceImageLoader} adds a host-to-device stage first.
 *
 * <p><b>Ownership:</b> {@link #close()} releases the items still parked at their slots and frees the assembler,
 * decoders and both pools; call it after the pipeline built on these stages has been closed. <b>Threading:</b> build
 * from one thread; the stages then run on the engine's.
 */
final class ImageStages implements AutoCloseable {
    static final String READ_STAGE = "read";
    static final String DECODE_STAGE = "decode";
    private static final int RING = 16;
    /** The largest file whose size classes hold a slab for every item in flight; larger ones are few. */
    private static final int PLENTIFUL_BYTES = 1024 * 1024;
    private static final Duration ACQUIRE_TIMEOUT = Duration.ofSeconds(60);
    /** What {@link #close()} frees, for the message when a loader must leak it instead. */
    static final String RESOURCES = "its unfilled items, batch assembler, FFmpeg decoders and the encoded-bytes and "
        + "batch pools";

    private final ImageLoaderOptions options;
    private final BufferPool bytesPool;
    private final ImageItemPool items;
    private final PerThreadImageDecoders decoders;
    private final SlotStages<ImageItem> slots;
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
        // items live from the source until decoded: three rings (source->read->assign, and slots assign->decode whose
        // items wait in the slot table), the tasks in flight in read and decode, one in the source's and one in the
        // assigner's hand, and slack
        int itemsInFlight = options.readConcurrency() + options.decodeConcurrency() + 3 * RING + 4;
        this.items = new ImageItemPool(itemsInFlight);
        // Up to 1 MB (most photos) every item in flight can hold a slab: with INPUT order the read stage keeps
        // finished reads until the oldest one is done, so a smaller class could be held entirely by reads waiting
        // behind a read that waits for a slab (a stall until the acquire timeout). Larger files are rare; a read
        // that finds its class empty takes a slab of a larger one (ReadStage), and with INPUT order larger reads
        // take theirs in input order (LargeBufferTurns), so none waits on a slab that a younger read holds. Pages
        // are touched only as used.
        this.bytesPool = BufferPool.open(PoolConfig.builder(name + "-encoded")
            .sizeClass(128 * 1024, itemsInFlight)
            .sizeClass(PLENTIFUL_BYTES, itemsInFlight)
            .sizeClass(4 * 1024 * 1024, 4)
            .sizeClass(32 * 1024 * 1024, 1)
            .acquireTimeout(ACQUIRE_TIMEOUT)
            .build());
        PerThreadImageDecoders perThread = null;
        try {
            BatchDescriptor layout = BatchDescriptor.images(options.batchSize(), ImageLayout.NHWC,
                options.cropSize(), options.cropSize(), 3, DType.U8);
            perThread = new PerThreadImageDecoders(MediaLimits.DEFAULT); // loads FFmpeg: may fail on a bad install
            this.slots = SlotStages.<ImageItem>builder(name).fillStage(DECODE_STAGE).layout(layout)
                .batchesInFlight(options.batchesInFlight()).dropLast(options.dropLast()).allocator(batchAllocator)
                .writer(new DecodeWriter(perThread, options.imageSpec())).labels(item -> item.file.label())
                .release(items::release).open();
        } catch (RuntimeException | Error e) {
            // Nothing has started: free what was built so far (the encoded-bytes pool is off-heap memory).
            if (perThread != null) {
                perThread.close();
            }
            bytesPool.close();
            throw e;
        }
        this.decoders = perThread;
        this.base = StageOptions.defaults().withWaitPolicy(options.waitPolicy()).withRingCapacity(RING)
            .withOrder(options.order());
    }

    /**
     * The stages up to decode, with the discard hook that gives back what undelivered items hold: image items (read
     * or not), slots, host batches, and device batches (for a device loader's stages after these).
     *
     * @param name  pipeline name (thread names, stats)
     * @param files the images, in load order, with their epochs (for augmentation seeds)
     * @param trace records task spans of the read and decode stages, or {@code null} for none
     * @return the builder, yielding batches; the caller adds its own stages and the sink
     */
    PipelineBuilder<Batch> stages(String name, EpochFiles files, TaskTrace trace) {
        // bounded by the pool's own timeout: a ticket never passed (its item dropped before its read) must not hang
        // the loader
        LargeBufferTurns turns = options.order() == OutputOrder.INPUT ? new LargeBufferTurns(ACQUIRE_TIMEOUT) : null;
        Function<ImageItem, ImageItem> read = new ReadStage(bytesPool, items, turns, PLENTIFUL_BYTES);
        if (trace != null) {
            read = trace.wrap(READ_STAGE, read);
        }
        read = JfrTasks.wrap(READ_STAGE, read); // a JFR recording shows each task; nearly free when not recording
        Consumer<Object> releaser = UndeliveredSlotReleaser.forItemsOf(ImageItem.class, items::release)
            .andThen(ImageStages::closeDeviceBatch);
        boolean seeded = options.augment() != null;
        PipelineBuilder<ImageItem> head = PipelineBuilder.<ImageItem>fromSource(() -> new ImageItemSource(files,
                items, seeded, options.augmentSeed(), turns))
            .named(name).sourceWaitPolicy(options.waitPolicy())
            .onDiscard(releaser)
            .pipeVirtual(READ_STAGE, read, base.withConcurrency(options.readConcurrency()));
        return slots.append(head, base, options.decodeConcurrency(), decode -> JfrTasks.wrap(DECODE_STAGE,
            trace == null ? decode : trace.wrap(DECODE_STAGE, decode)));
    }

    /** A device batch (a copy that completed after close, or one in the consumer's buffer) waits for its copy. */
    private static void closeDeviceBatch(Object undelivered) {
        if (undelivered instanceof DeviceBatch deviceBatch) {
            deviceBatch.close();
        }
    }

    /** {@return the stage options every stage starts from (wait policy, ring size, order)} */
    StageOptions base() {
        return base;
    }

    /** {@return images that failed to decode so far} */
    long decodeFailures() {
        return slots.fillFailures();
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
        return readFailures + slots.fillFailures();
    }

    /**
     * The first failure of the earliest stage that had one: an unreadable file (read stage), else an undecodable
     * image.
     *
     * @param stats the pipeline's stage statistics
     * @return its cause, naming the file, or {@code null} when none failed
     */
    Throwable firstFailure(Iterable<StageStats> stats) {
        for (StageStats s : stats) {
            if (s.stage().equals(READ_STAGE) && s.firstFailure() != null) {
                return s.firstFailure();
            }
        }
        return slots.firstFillFailure();
    }

    /**
     * The label of sample {@code i} of a batch (valid until the batch is closed).
     *
     * @param batch the batch
     * @param i     the sample index
     * @return its label
     */
    int label(Batch batch, int i) {
        return slots.label(batch, i);
    }

    @Override
    public void close() {
        try {
            slots.close(); // parked items give their bytes back to the bytes pool: close it after
        } finally {
            try {
                decoders.close();
            } finally {
                bytesPool.close();
            }
        }
    }
}
