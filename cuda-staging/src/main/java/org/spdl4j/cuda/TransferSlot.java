package org.spdl4j.cuda;

import java.util.concurrent.CompletableFuture;

/**
 * One of the K copy lanes: a stream and the event that marks the end of its current copy, plus the copy's
 * bookkeeping while armed. Written by the submit thread before the slot is queued, read and cleared by the
 * completion thread after it is taken; the queue and the permit order these accesses.
 */
final class TransferSlot {
    final DeviceStream stream;
    final DeviceEvent done;
    HostBatch host;
    DeviceBatch deviceBatch;
    CompletableFuture<DeviceBatch> future;

    TransferSlot(DeviceStream stream, DeviceEvent done) {
        this.stream = stream;
        this.done = done;
    }

    void arm(HostBatch host, DeviceBatch deviceBatch, CompletableFuture<DeviceBatch> future) {
        this.host = host;
        this.deviceBatch = deviceBatch;
        this.future = future;
    }

    void disarm() {
        host = null;
        deviceBatch = null;
        future = null;
    }
}
