package org.spdl4j.examples.image;

import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.spdl4j.cuda.Device;
import org.spdl4j.cuda.DeviceBatch;
import org.spdl4j.cuda.HostBatch;
import org.spdl4j.cuda.HostToDeviceTransfer;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.examples.StoppedPipelines;
import org.spdl4j.examples.report.TaskTrace;
import org.spdl4j.offheap.batch.Batch;

/**
 * The image pipeline feeding a device: the same read -> assign -> decode stages as {@link ImageBatchLoader}, with
 * batch memory from {@link Device#hostAllocator()} (pinned on a GPU, so the copy is DMA), then an async
 * {@value #H2D_STAGE} stage: each batch goes to {@link HostToDeviceTransfer#applyAsync} and comes out as a
 * {@link DeviceBatch} whose data is on the device. The host batch's lease goes back to its pool the moment its copy
 * completes, so decoding the next batches overlaps the copies of the last ones.
 *
 * <p><b>Copies in flight:</b> the stage's concurrency equals the transfer's K, so a submit never waits for a stream
 * (the transfer frees a slot before it completes the future) and the stage's dispatcher thread never blocks.
 *
 * <p><b>Ownership:</b> each {@link DeviceBatch} the iteration returns belongs to the consumer, which waits on it
 * ({@link DeviceBatch#awaitReady()} or its stream waits on the ready event) and closes it when the work reading it
 * has completed. The device belongs to the caller and must outlive the loader. {@link #close()} stops the pipeline,
 * closes every undelivered batch, host or device (the discard hook {@link ImageStages} sets), waits for copies in flight,
 * closes the transfer and frees the pools: closing mid-epoch leaks nothing, as long as the consumer closed the
 * batches it took. <b>Labels:</b> not carried (a device batch has no sample sequence); use {@link ImageBatchLoader}
 * when the consumer needs them on the host. <b>Threading:</b> iterate from one thread.
 */
public final class DeviceImageLoader implements Iterable<DeviceBatch>, AutoCloseable {
    /** Name of the host-to-device stage in the stats. */
    public static final String H2D_STAGE = "h2d";

    private final Device device;
    private final ImageStages stages;
    private final HostToDeviceTransfer transfer;
    private final Pipeline<DeviceBatch> pipeline;

    /**
     * Builds (does not start) the loader.
     *
     * @param name           pipeline name (thread names, stats, pool names)
     * @param files          the images, in the order to load them ({@link EpochFiles}: with their epochs)
     * @param options        how the image stages run; {@code batchesInFlight} should exceed {@code copiesInFlight}
     *                       so decoding goes on while copies run
     * @param device         the target device, owned by the caller, closed after the loader
     * @param copiesInFlight K: copies in flight at most (the transfer's streams and the stage's concurrency), >= 1
     * @param trace          records task spans of the read and decode stages, or {@code null} for none
     */
    public DeviceImageLoader(String name, Iterable<FileItem> files, ImageLoaderOptions options, Device device,
                             int copiesInFlight, TaskTrace trace) {
        this.device = Objects.requireNonNull(device, "device");
        this.stages = new ImageStages(name, options, device.hostAllocator());
        HostToDeviceTransfer t = null;
        try {
            t = HostToDeviceTransfer.create(device, copiesInFlight);
            HostToDeviceTransfer copies = t;
            this.pipeline = stages.stages(name, EpochFiles.of(files), trace)
                .pipeAsync(H2D_STAGE, (Batch batch) -> copy(copies, batch), stages.base().withConcurrency(copiesInFlight))
                .sink(options.bufferSize(), options.waitPolicy())
                .build();
        } catch (RuntimeException | Error e) { // an Error too (out of pinned memory): free what was built
            if (t != null) {
                t.close();
            }
            stages.close();
            throw e;
        }
        this.transfer = t;
    }

    /**
     * The stage function: hands the batch to the transfer, which closes it when its copy completes.
     *
     * @return the future device batch, or {@code null} (dropping the item) for a batch left empty by failed images
     */
    private static CompletableFuture<DeviceBatch> copy(HostToDeviceTransfer transfer, Batch batch) {
        HostBatch host;
        try {
            if (batch.size() == 0) { // every sample failed: nothing to copy, and a zero-byte allocation is refused
                batch.close();
                return null;
            }
            host = HostBatch.of(batch);
        } catch (RuntimeException e) {
            batch.close(); // the function owns its input until the transfer takes it
            throw e;
        }
        return transfer.applyAsync(host); // allocates one future per batch: the async stage's contract
    }

    /** {@return the running pipeline (stats, next with timeout)} */
    public Pipeline<DeviceBatch> pipeline() {
        return pipeline;
    }

    /** {@return per-stage statistics, source first, {@value #H2D_STAGE} before the sink} */
    public List<StageStats> stats() {
        return pipeline.stats();
    }

    /** {@return images dropped so far: unreadable (read stage) or undecodable (decode stage)} */
    public long failedImages() {
        return stages.failedImages(pipeline.stats());
    }

    /**
     * {@return why an image could not be read or decoded: the read stage's first failure, else the decode stage's
     * (naming the image), or {@code null} when none failed}
     */
    public Throwable firstFailure() {
        return stages.firstFailure(pipeline.stats());
    }

    /** {@return the device the batches go to} */
    public Device device() {
        return device;
    }

    @Override
    public Iterator<DeviceBatch> iterator() {
        return pipeline.iterator();
    }

    /** Stops the pipeline, waits for copies in flight, closes the transfer and frees the pools; never throws. */
    @Override
    public void close() {
        pipeline.close(); // undelivered host and device batches go to the discard hook
        if (!StoppedPipelines.mayFree(pipeline, "device image loader '" + pipeline.spec().name() + "'",
                "its host-to-device transfer (streams, copies in flight), " + ImageStages.RESOURCES)) {
            return;
        }
        transfer.close(); // drains copies in flight: their host batches close, late device batches are discarded
        stages.close();
    }
}
