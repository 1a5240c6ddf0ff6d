package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.offheap.tensor.DType;

/**
 * The transfer's flow control, on a host device whose events complete only when the test opens a gate: a slow
 * copy engine, made deterministic.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TransferBackPressureTest {
    /** Host device whose events complete when {@link #gate} opens. */
    static final class GatedDevice extends ForwardingDevice {
        final HostDevice host;
        final CountDownLatch gate = new CountDownLatch(1);
        /** Whether a wait ignores interrupts, as {@code cuEventSynchronize} does. */
        volatile boolean uninterruptible;
        /** The number of the createEvent call that fails (a driver out of resources), 0 for none. */
        int failEventAt;
        private int eventsCreated;
        /** How many of the next allocations fail (a device out of memory). */
        final java.util.concurrent.atomic.AtomicInteger failAllocations = new java.util.concurrent.atomic.AtomicInteger();
        /** Whether copies to the device are refused (a driver error on cuMemcpyHtoDAsync). */
        volatile boolean failCopies;
        /** Whether closing a device buffer throws, after the buffer went back to the pool. */
        volatile boolean failBufferCloses;
        /** How many of the next event waits on the completion thread throw an {@link Error} (a driver gone bad). */
        final java.util.concurrent.atomic.AtomicInteger failCompletionWaits =
                new java.util.concurrent.atomic.AtomicInteger();
        /** How many of the next event closes throw, after destroying the event. */
        final java.util.concurrent.atomic.AtomicInteger failEventCloses = new java.util.concurrent.atomic.AtomicInteger();
        /**
         * Whether event waits fail before waiting, as a CUDA event's do once its device was closed; a stream's close
         * then still waits for the gate, as a CUDA stream's does for its queued copy.
         */
        volatile boolean closedUnderTransfer;
        /** A permit each time a stream's close starts waiting for the gate (device closed under the transfer). */
        final java.util.concurrent.Semaphore streamClosesWaiting = new java.util.concurrent.Semaphore(0);

        GatedDevice() {
            this(new HostDevice());
        }

        private GatedDevice(HostDevice host) {
            super(host); // the calls not overridden here go to the host device
            this.host = host;
        }

        @Override
        public DeviceEvent createEvent() {
            if (++eventsCreated == failEventAt) {
                throw new IllegalStateException("out of events (test)");
            }
            DeviceEvent real = host.createEvent();
            return new DeviceEvent() {
                @Override
                public void record(DeviceStream stream) {
                    real.record(stream);
                }

                @Override
                public boolean isComplete() {
                    return gate.getCount() == 0;
                }

                @Override
                public void synchronize() {
                    if (closedUnderTransfer) {
                        throw new DeviceClosedException("gated device is closed (test)");
                    }
                    if (Thread.currentThread().getName().startsWith("spdl4j-h2d-")
                            && failCompletionWaits.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        throw new AssertionError("event wait failed on the completion thread (test)");
                    }
                    boolean interrupted = false;
                    try {
                        while (true) {
                            try {
                                gate.await();
                                return;
                            } catch (InterruptedException e) {
                                if (!uninterruptible) {
                                    Thread.currentThread().interrupt();
                                    throw new IllegalStateException(e);
                                }
                                interrupted = true; // a driver call goes on waiting
                            }
                        }
                    } finally {
                        if (interrupted) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }

                @Override
                public void close() {
                    real.close();
                    if (failEventCloses.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        throw new IllegalStateException("cuEventDestroy failed after destroying (test)");
                    }
                }
            };
        }

        @Override
        public DeviceStream createStream() {
            return new ForwardingStream(host.createStream()) {
                @Override
                public void close() {
                    if (closedUnderTransfer && gate.getCount() > 0) {
                        streamClosesWaiting.release();
                        try {
                            gate.await(); // the copy queued on this stream ends when the test opens the gate
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    super.close();
                }
            };
        }

        @Override
        public String name() {
            return "gated";
        }

        @Override
        public boolean isGpu() {
            return false;
        }

        @Override
        public DeviceBuffer allocate(long bytes) {
            if (failAllocations.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("out of device memory (test)");
            }
            DeviceBuffer real = host.allocate(bytes);
            if (!failBufferCloses) {
                return real;
            }
            return new DeviceBuffer() {
                @Override
                public long address() {
                    return real.address();
                }

                @Override
                public long byteSize() {
                    return real.byteSize();
                }

                @Override
                public long capacity() {
                    return real.capacity();
                }

                @Override
                public void close() {
                    real.close();
                    throw new IllegalStateException("device buffer close failed after freeing (test)");
                }
            };
        }

        @Override
        public void copyToDevice(long hostAddress, DeviceBuffer dst, long bytes, DeviceStream stream) {
            if (failCopies) {
                throw new IllegalStateException("copy refused by the driver (test)");
            }
            host.copyToDevice(hostAddress, dst, bytes, stream);
        }

    }

    @Test
    void shouldHoldHostBatchesUntilTheCopyCompletesAndBlockBeyondK() throws Exception {
        int k = 3;
        GatedDevice device = new GatedDevice();
        TestBatches batches = new TestBatches(device);
        TensorSpec spec = TensorSpec.of(DType.U8, 1024);
        DeviceBatch[] out = new DeviceBatch[k + 1];
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, k)) {
            for (int i = 0; i < k; i++) {
                out[i] = transfer.apply(batches.random(spec, i, null));
                assertThat(out[i].isReady()).isFalse();
            }
            AtomicReference<DeviceBatch> extra = new AtomicReference<>();
            Thread submitter = Thread.ofPlatform().start(() -> extra.set(transfer.apply(batches.random(spec, 9, null))));
            submitter.join(300);
            assertThat(submitter.isAlive()).as("submit number K+1 waits for a free slot").isTrue();
            assertThat(batches.released).as("no host batch released before its copy completed").hasValue(0);

            device.gate.countDown(); // the "DMA" finishes
            submitter.join(10_000);
            assertThat(submitter.isAlive()).isFalse();
            out[k] = extra.get();
            for (DeviceBatch b : out) {
                assertThat(b.isReady()).isTrue();
                b.close();
            }
        }
        assertThat(batches.released).as("all released once the copies completed and the transfer closed").hasValue(k + 1);
        device.close();
        assertThat(device.counters().allReleased()).as("%s", device.counters()).isTrue();
    }

    /**
     * A submit that fails (device out of memory) must not move the copy lanes on: with K = 2, batch 0 is in flight on
     * lane 0 and batch 1 fails; batch 2 must take lane 1, not lane 0 (whose copy is still pending: re-arming it would
     * leak batch 0's host batch and hand batch 2's memory back while its copy may still read it).
     */
    @Test
    void shouldKeepLanesInStepWhenASubmitFails() throws Exception {
        GatedDevice device = new GatedDevice();
        TestBatches batches = new TestBatches(device);
        TensorSpec spec = TensorSpec.of(DType.U8, 1024);
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2)) {
            DeviceBatch first = transfer.apply(batches.random(spec, 0, null));
            device.failAllocations.set(1);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> transfer.apply(batches.random(spec, 1, null)))
                    .hasMessageContaining("out of device memory");
            assertThat(batches.released).as("the failed batch's host memory is back").hasValue(1);
            var third = transfer.applyAsync(batches.random(spec, 2, null));
            device.gate.countDown();
            DeviceBatch last = third.get(10, TimeUnit.SECONDS);
            first.awaitReady();
            assertThat(first.isReady()).isTrue();
            assertThat(last.isReady()).isTrue();
            first.close();
            last.close();
        }
        assertEverythingBack(device, batches, 3);
    }

    /**
     * A submit whose copy is refused and whose buffer then fails to close must still give its lane and its host
     * batch back, and report the copy failure (the close failure suppressed on it): with K = 1, a lane kept would
     * block every later submit.
     */
    @Test
    void shouldGiveTheLaneAndHostBatchBackWhenACopyFailsAndItsBufferFailsToClose() throws Exception {
        GatedDevice device = new GatedDevice();
        TestBatches batches = new TestBatches(device);
        TensorSpec spec = TensorSpec.of(DType.U8, 1024);
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 1, 2_000)) {
            device.failCopies = true;
            device.failBufferCloses = true;
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> transfer.apply(batches.random(spec, 0, null)))
                    .hasMessageContaining("copy refused by the driver")
                    .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                            .extracting(Throwable::getMessage).asString().contains("close failed after freeing"));
            assertThat(batches.released).as("the failed batch's host memory is back, once").hasValue(1);
            device.failCopies = false;
            device.failBufferCloses = false;
            device.gate.countDown();
            DeviceBatch next = transfer.apply(batches.random(spec, 1, null)); // needs the one lane back
            next.awaitReady();
            next.close();
        }
        assertEverythingBack(device, batches, 2);
    }

    /**
     * An {@link Error} from the completion thread's wait for a copy must still give the slot's lane and host batch
     * back and fail that copy's future: with K = 1 the next submit needs the permit.
     */
    @Test
    void shouldGiveTheLaneBackWhenTheCompletionWaitThrowsAnError() throws Exception {
        GatedDevice device = new GatedDevice();
        TestBatches batches = new TestBatches(device);
        TensorSpec spec = TensorSpec.of(DType.U8, 1024);
        device.gate.countDown();
        try (HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 1, 2_000)) {
            device.failCompletionWaits.set(1);
            java.util.concurrent.CompletableFuture<DeviceBatch> first =
                    transfer.applyAsync(batches.random(spec, 0, null)).toCompletableFuture();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS))
                    .hasRootCauseMessage("event wait failed on the completion thread (test)");
            DeviceBatch next = transfer.apply(batches.random(spec, 1, null)); // K = 1: needs the first permit back
            next.awaitReady();
            next.close();
        }
        assertEverythingBack(device, batches, 2);
    }

    /**
     * A host batch whose release throws an {@link Error} (here an {@link AssertionError} from its owner's callback)
     * must not end the completion thread: with K = 1 its permit has to come back for the next submit, and close must
     * still free the lanes.
     */
    @Test
    void shouldKeepCompletingCopiesWhenAHostBatchReleaseThrowsAnError() {
        HostDevice device = new HostDevice();
        TestBatches batches = new TestBatches(device);
        TensorSpec spec = TensorSpec.of(DType.U8, 1024);
        MemoryAllocator allocator = device.hostAllocator();
        long address = allocator.allocate(spec.byteSize(), TestBatches.ALIGNMENT);
        java.util.concurrent.atomic.AtomicInteger badReleases = new java.util.concurrent.atomic.AtomicInteger();
        HostBatch bad = HostBatch.of(address, spec, () -> {
            allocator.free(address, spec.byteSize(), TestBatches.ALIGNMENT);
            badReleases.incrementAndGet();
            throw new AssertionError("host batch release callback failed (test)");
        });
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 1, 2_000);
        try {
            transfer.apply(bad).close();
            DeviceBatch next = transfer.apply(batches.random(spec, 1, null)); // K = 1: needs the first permit back
            next.awaitReady();
            next.close();
        } finally {
            transfer.close();
        }
        assertThat(badReleases).as("the throwing release ran once").hasValue(1);
        assertThat(batches.released).hasValue(1);
        assertThat(transfer.releasedHostBatches()).isEqualTo(2);
        LiveResourceCounters live = device.counters();
        assertThat(live.streams() + live.events()).as("lanes freed by close: %s", live).isZero();
        device.close();
        assertThat(live.allReleased()).as("%s", live).isTrue();
    }

    /**
     * A device that never finishes its copies (a hung GPU, whose driver wait ignores interrupts): close gives up after
     * its wait and fails every pending {@code applyAsync} future at once, so no consumer waits forever; if the copies
     * do finish later, the completion thread releases the host batches, closes the undelivered device batches and
     * frees the lanes, so nothing stays behind.
     */
    @Test
    void shouldFailPendingFuturesWhenCloseGivesUpOnAHungDeviceAndCleanUpIfItRecovers() throws Exception {
        GatedDevice device = new GatedDevice();
        device.uninterruptible = true;
        TestBatches batches = new TestBatches(device);
        TensorSpec spec = TensorSpec.of(DType.U8, 1024);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2);
        var first = transfer.applyAsync(batches.random(spec, 0, null));
        var second = transfer.applyAsync(batches.random(spec, 1, null));
        try {
            long start = System.nanoTime();
            transfer.close(200);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("close gives up after its wait")
                    .isLessThan(10_000);
            for (var f : java.util.List.of(first, second)) {
                assertThat(f).isCompletedExceptionally();
                org.assertj.core.api.Assertions.assertThatThrownBy(f::join).hasMessageContaining("closed with this "
                        + "copy still pending");
            }
            assertThat(batches.released).as("host batches held while the DMA may still read them").hasValue(0);
        } finally {
            device.gate.countDown(); // the device recovers: the copies end (also when an assertion above failed)
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        LiveResourceCounters live = device.counters();
        while ((batches.released.get() < 2 || live.leasedBuffers() + live.streams() + live.events() > 0)
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(batches.released).as("host batches released once their copies ended").hasValue(2);
        assertThat(live.leasedBuffers()).as("undelivered device batches closed: %s", live).isZero();
        assertThat(live.streams() + live.events()).as("lanes freed by the completion thread: %s", live).isZero();
        device.close();
        assertThat(live.allReleased()).as("%s", live).isTrue();
    }

    /**
     * close() must not wait behind a submitter blocked on back-pressure: with K = 1 on a hung device, one copy in
     * flight and a second submit waiting for its slot (5 s submit timeout), close(200) returns well before that
     * timeout and the waiting submit fails at once, saying the transfer is closed.
     */
    @Test
    void shouldCloseWithinItsWaitAndFailASubmitBlockedOnBackPressure() throws Exception {
        GatedDevice device = new GatedDevice();
        device.uninterruptible = true;
        TestBatches batches = new TestBatches(device);
        TensorSpec spec = TensorSpec.of(DType.U8, 1024);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 1, 5_000);
        AtomicReference<Throwable> refused = new AtomicReference<>();
        try {
            var first = transfer.applyAsync(batches.random(spec, 0, null));
            Thread submitter = Thread.ofPlatform().start(() -> {
                try {
                    transfer.apply(batches.random(spec, 1, null)).close();
                } catch (RuntimeException e) {
                    refused.set(e);
                }
            });
            while (submitter.getState() != Thread.State.TIMED_WAITING) { // parked in the wait for a free slot
                Thread.sleep(1);
            }
            long start = System.nanoTime();
            transfer.close(200);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                    .as("close keeps to its own wait, not the blocked submit's timeout").isLessThan(2_000);
            submitter.join(2_000);
            assertThat(submitter.isAlive()).as("the waiting submit is woken by close").isFalse();
            assertThat(refused.get()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("transfer to gated is closed");
            assertThat(batches.released).as("the refused batch's host memory is back at once").hasValue(1);
            assertThat(first).isCompletedExceptionally();
        } finally {
            device.gate.countDown(); // the device recovers: the pending copy ends and the lanes are freed
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        LiveResourceCounters live = device.counters();
        while ((batches.released.get() < 2 || live.leasedBuffers() + live.streams() + live.events() > 0)
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(batches.released).as("every host batch released once").hasValue(2);
        device.close();
        assertThat(live.allReleased()).as("%s", live).isTrue();
    }

    /** A transfer whose construction fails part way (an event cannot be created) frees the streams it made. */
    @Test
    void shouldFreeWhatItCreatedWhenConstructionFails() {
        GatedDevice device = new GatedDevice();
        device.failEventAt = 2; // the first lane's done event exists, the second lane's stream too, then this fails
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HostToDeviceTransfer.create(device, 3))
                .hasMessageContaining("out of events");
        assertThat(device.counters().streams()).as("streams left").isZero();
        assertThat(device.counters().events()).as("events left").isZero();
        device.close();
    }

    /** Every host batch released exactly once; closing the device then leaves no resource of it live. */
    private static void assertEverythingBack(GatedDevice device, TestBatches batches, int hostBatches) {
        assertThat(batches.released).as("every host batch released exactly once").hasValue(hostBatches);
        device.close();
        assertThat(device.counters().allReleased()).as("%s", device.counters()).isTrue();
    }
}
