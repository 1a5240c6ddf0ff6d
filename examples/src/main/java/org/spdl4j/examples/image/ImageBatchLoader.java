package org.spdl4j.examples.image;

import java.util.Iterator;
import java.util.List;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.examples.StoppedPipelines;
import org.spdl4j.examples.report.TaskTrace;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.offheap.batch.Batch;

/**
 * The image pipeline: files -> read (virtual threads, bytes into pooled off-heap memory) -> assign (each image its
 * batch slot, in order) -> decode (FFmpeg + one swscale pass straight into the slot) -> batches of
 * {@code [n, crop, crop, 3]} uint8 RGB, NHWC, in one off-heap lease each. Assign and decode are the generic
 * {@link org.spdl4j.examples.slots.SlotStages} with a {@link DecodeWriter}; see {@link ImageStages}.
 *
 * <p>Copies per image: storage to pooled bytes (one), decoder to its batch slot (one). Nothing else touches pixels.
 *
 * <p><b>Ownership:</b> each {@link Batch} the iteration returns belongs to the consumer, which must {@link
 * Batch#close()} it (its memory goes back to the pool; at most {@code batchesInFlight} batches exist, so a consumer
 * that keeps them stalls the loader). {@link #close()} stops the pipeline, gives back what every undelivered image
 * and batch holds (the engine's discard hook, {@link org.spdl4j.examples.slots.UndeliveredSlotReleaser}), and frees every pool and FFmpeg
 * context: closing mid-epoch leaks nothing, as long as the consumer closed the batches it took.
 *
 * <p><b>Bad input:</b> an image that cannot be read or decoded fails alone (a {@link org.spdl4j.media.MediaException}
 * naming the file, logged); its batch is published without it and the epoch goes on. {@link #failedImages()} counts
 * them.
 * <b>Threading:</b> iterate from one thread.
 */
public final class ImageBatchLoader implements BatchLoader {
    private final ImageLoaderOptions options;
    private final ImageStages stages;
    private final Pipeline<Batch> pipeline;

    /**
     * Builds (does not start) the loader.
     *
     * @param name           pipeline name (thread names, stats)
     * @param files          the images, in the order to load them (a sampler's order for one epoch, say); an
     *                       {@link EpochFiles} gives each its epoch for augmentation seeds, else all are epoch 0
     * @param options        how it runs
     * @param batchAllocator where batch memory comes from: direct memory, or pinned memory for fast GPU copies
     * @param trace          records task spans of the read and decode stages, or {@code null} for none
     */
    public ImageBatchLoader(String name, Iterable<FileItem> files, ImageLoaderOptions options,
                            MemoryAllocator batchAllocator, TaskTrace trace) {
        this.options = options;
        this.stages = new ImageStages(name, options, batchAllocator);
        try {
            this.pipeline = stages.stages(name, EpochFiles.of(files), trace).sink(options.bufferSize(),
                options.waitPolicy()).build();
        } catch (RuntimeException e) {
            stages.close();
            throw e;
        }
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
        return stages.decodeFailures();
    }

    /** {@return images dropped so far for any reason: unreadable (read stage) or undecodable (decode stage)} */
    @Override
    public long failedImages() {
        return stages.failedImages(pipeline.stats());
    }

    @Override
    public Throwable firstFailure() {
        return stages.firstFailure(pipeline.stats());
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
        return stages.label(batch, i);
    }

    @Override
    public Iterator<Batch> iterator() {
        return pipeline.iterator();
    }

    @Override
    public void close() {
        pipeline.close();
        if (StoppedPipelines.mayFree(pipeline, "image loader '" + pipeline.spec().name() + "'",
                ImageStages.RESOURCES)) {
            stages.close();
        }
    }
}
