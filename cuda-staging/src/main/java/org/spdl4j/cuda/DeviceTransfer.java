package org.spdl4j.cuda;

import java.util.concurrent.CompletionStage;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchTransfer;

/**
 * A loader's transfer step onto a {@link Device}: each host batch is copied asynchronously by a
 * {@link HostToDeviceTransfer} (K copies in flight, one stream each) and delivered as a {@link DeviceBatch} whose
 * data is on the device; the host batch goes back to its pool the moment its copy completes, so decoding the next
 * batches overlaps the copies. On a {@link HostDevice} the same path copies into host memory (CPU-only machines).
 *
 * <p>Give the loader the device's {@link Device#hostAllocator()} as its batch memory: on a GPU that memory is pinned
 * and the copy is DMA, with no staging copy. <b>Ownership:</b> the transfer (streams) belongs to the loader that takes
 * it, which closes it; the device stays the caller's and must outlive the loader. The consumer waits on each device
 * batch ({@link DeviceBatch#awaitReady()} or its stream waits on the ready event) and closes it when done.
 * <b>Threading:</b> {@link #transfer} from one thread (the loader's transfer stage).
 */
public final class DeviceTransfer implements BatchTransfer<DeviceBatch> {
    private final HostToDeviceTransfer copies;

    private DeviceTransfer(HostToDeviceTransfer copies) {
        this.copies = copies;
    }

    /**
     * Creates the transfer.
     *
     * @param device         the target device, owned by the caller
     * @param copiesInFlight K: copies in flight at most (streams), at least 1
     * @return the transfer
     */
    public static DeviceTransfer to(Device device, int copiesInFlight) {
        return new DeviceTransfer(HostToDeviceTransfer.create(device, copiesInFlight));
    }

    @Override
    public CompletionStage<DeviceBatch> transfer(Batch batch) {
        HostBatch host;
        try {
            host = HostBatch.of(batch);
        } catch (RuntimeException | Error e) {
            batch.close(); // the transfer owns the batch from the call on, on every path
            throw e;
        }
        return copies.applyAsync(host); // one future per batch: the async stage's contract
    }

    @Override
    public int maxInFlight() {
        return copies.inFlightLimit();
    }

    /** Waits for copies in flight (their host batches close, late device batches are discarded), frees the streams. */
    @Override
    public void close() {
        copies.close();
    }
}
