package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.tensor.DType;

/**
 * How {@link HostToDeviceTransfer#close()} waits for the copies in flight, on a host device whose copies end when the
 * test opens a gate ({@link TransferBackPressureTest.GatedDevice}): from an interrupted thread, with no time to wait,
 * from a completion callback, from a second thread, and when the device was closed under the transfer (each host
 * batch released exactly once, after its copy, and nothing left live).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransferCloseTest {
    private static final TensorSpec SPEC = TensorSpec.of(DType.U8, 1024);

    /**
     * A training loop being cancelled closes the transfer with its interrupt flag set. Before the fix both joins
     * threw at once: close returned in about a millisecond, failed a copy that was about to finish and logged a hung
     * device, and the device could then be closed under the copy.
     */
    @Test
    void shouldWaitForTheCopiesInFlightWhenTheClosingThreadIsInterrupted() throws Exception {
        TransferBackPressureTest.GatedDevice device = new TransferBackPressureTest.GatedDevice();
        device.uninterruptible = true; // as cuEventSynchronize
        TestBatches batches = new TestBatches(device);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2, 10_000);
        CompletableFuture<DeviceBatch> copy = transfer.applyAsync(batches.random(SPEC, 0, null));
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread closer = Thread.ofPlatform().start(() -> {
            Thread.currentThread().interrupt();
            transfer.close();
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        Thread.sleep(300);
        device.gate.countDown(); // the copy ends well inside close's 10 s

        closer.join();

        copy.get(5, TimeUnit.SECONDS).close();
        assertThat(stillInterrupted).as("the interrupt is kept for the caller").isTrue();
        assertThat(batches.released).hasValue(1);
        device.host.close();
    }

    /** No time to wait ({@code Thread.join(0)} waits forever) on a hung device: close still returns. */
    @Test
    void shouldNotWaitForeverWhenGivenNoTimeToWait() throws Exception {
        TransferBackPressureTest.GatedDevice device = new TransferBackPressureTest.GatedDevice();
        device.uninterruptible = true;
        TestBatches batches = new TestBatches(device);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 1, 0);
        CompletableFuture<DeviceBatch> copy = transfer.applyAsync(batches.random(SPEC, 0, null));
        Thread closer = Thread.ofPlatform().daemon().start(transfer::close);

        closer.join(10_000);
        boolean hung = closer.isAlive();
        device.gate.countDown();
        closer.join(10_000);

        assertThat(hung).as("close() with no time to wait, on a hung device").isFalse();
        assertThat(copy).as("failed by close as still pending").isCompletedExceptionally();
        awaitReleased(batches, 1); // the completion thread releases the host batch when the copy ends
        device.host.close();
    }

    /**
     * close() from a stage of an applyAsync future runs on the completion thread, which it cannot wait for. Before
     * the fix it waited for itself the whole timeout, then failed the other copy in flight as "hung".
     */
    @Test
    void shouldDeliverTheOtherCopiesWhenClosedFromACompletionCallback() throws Exception {
        TransferBackPressureTest.GatedDevice device = new TransferBackPressureTest.GatedDevice();
        TestBatches batches = new TestBatches(device);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2, 2_000);
        CompletableFuture<DeviceBatch> first = transfer.applyAsync(batches.random(SPEC, 0, null));
        CompletableFuture<DeviceBatch> second = transfer.applyAsync(batches.random(SPEC, 1, null));
        AtomicLong closeMillis = new AtomicLong(-1);
        CompletableFuture<Void> closedInCallback = first.thenAccept(b -> {
            long t0 = System.nanoTime();
            transfer.close(); // "stop after this batch"
            closeMillis.set(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            b.close();
        });

        device.gate.countDown();

        closedInCallback.get(10, TimeUnit.SECONDS);
        second.get(10, TimeUnit.SECONDS).close();
        assertThat(closeMillis.get()).as("close on the completion thread returns at once").isLessThan(2_000);
        awaitReleased(batches, 2);
        awaitStreamsFreed(device);
        device.host.close();
    }

    /**
     * A first close from a completion callback cannot wait (it runs on the completion thread); the try-with-resources
     * close that follows on the main thread must, or the device is closed under the copies still in flight. Before
     * the fix that second close found the first "done" and returned at once.
     */
    @Test
    void shouldMakeACloseAfterOneFromACallbackWaitForTheCopiesInFlight() throws Exception {
        TransferBackPressureTest.GatedDevice device = new TransferBackPressureTest.GatedDevice();
        TestBatches batches = new TestBatches(device);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 2, 10_000);
        CompletableFuture<DeviceBatch> first = transfer.applyAsync(batches.random(SPEC, 0, null));
        CompletableFuture<DeviceBatch> second = transfer.applyAsync(batches.random(SPEC, 1, null));
        CountDownLatch closedInCallback = new CountDownLatch(1);
        CountDownLatch callbackMayReturn = new CountDownLatch(1);
        first.thenAccept(b -> {
            transfer.close(); // "stop after this batch": the first close, on the completion thread
            b.close();
            closedInCallback.countDown();
            try {
                callbackMayReturn.await(); // the completion thread is held here: the second copy is not done yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        device.gate.countDown();
        assertThat(closedInCallback.await(10, TimeUnit.SECONDS)).isTrue();
        countDownLater(callbackMayReturn, 300);

        transfer.close(); // try-with-resources, on the main thread

        assertThat(second).as("the copy in flight when the main thread closed").isDone();
        assertThat(batches.released).hasValue(2);
        assertThat(device.counters().streams()).isZero();
        second.join().close();
        device.host.close();
    }

    /**
     * On a hung device the first close fails the pending futures, which runs their callbacks on the closing thread;
     * one that closes the transfer again ("stop at the first error") must not wait for the close it runs inside.
     * Before the fix it waited out its bound: 5.5 s for a 200 ms close.
     */
    @Test
    void shouldNotMakeACloseFromACallbackOfTheFirstCloseWaitForItself() throws Exception {
        TransferBackPressureTest.GatedDevice device = new TransferBackPressureTest.GatedDevice();
        device.uninterruptible = true;
        TestBatches batches = new TestBatches(device);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 1, 200);
        CompletableFuture<DeviceBatch> copy = transfer.applyAsync(batches.random(SPEC, 0, null));
        copy.whenComplete((b, e) -> {
            if (e != null) {
                transfer.close();
            }
        });

        long t0 = System.nanoTime();
        transfer.close();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

        assertThat(copy).isCompletedExceptionally();
        assertThat(millis).as("close of a hung device with a 200 ms wait, in ms").isLessThan(3_000);
        device.gate.countDown();
        awaitReleased(batches, 1);
        device.host.close();
    }

    /** A second close (a shutdown hook racing try-with-resources) returns only once the copies are over. */
    @Test
    void shouldMakeASecondCloseWaitForTheFirst() throws Exception {
        TransferBackPressureTest.GatedDevice device = new TransferBackPressureTest.GatedDevice();
        device.uninterruptible = true;
        TestBatches batches = new TestBatches(device);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 1, 20_000);
        CompletableFuture<DeviceBatch> copy = transfer.applyAsync(batches.random(SPEC, 0, null));
        Thread first = Thread.ofPlatform().start(transfer::close);
        while (first.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(1); // the first close waits for the copy
        }
        Thread opener = countDownLater(device.gate, 300);

        transfer.close();

        assertThat(device.counters().streams()).as("streams left when the second close returned").isZero();
        assertThat(batches.released).hasValue(1);
        first.join();
        opener.join();
        copy.get(5, TimeUnit.SECONDS).close();
        device.host.close();
    }

    /**
     * The device closed before the transfer (the wrong order): the completion thread's wait on the copy's event fails
     * before it waits, so the copy may still be reading the host batch (something else in the process may keep the GPU
     * context). The batch must go back exactly once, after its copy: the lane's stream is closed, which waits for it.
     * Before the fix the batch was kept for good, and its host block leaked.
     */
    @Test
    void shouldReleaseTheHostBatchOnceItsCopyEndsWhenTheDeviceWasClosedUnderTheTransfer() throws Exception {
        TransferBackPressureTest.GatedDevice gated = new TransferBackPressureTest.GatedDevice();
        TestBatches batches = new TestBatches(gated);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(gated, 1, 2_000);
        gated.closedUnderTransfer = true; // event waits now fail as a CUDA event's do once its context is released

        CompletableFuture<DeviceBatch> copy = transfer.applyAsync(batches.random(SPEC, 0, null));

        assertThat(gated.streamClosesWaiting.tryAcquire(10, TimeUnit.SECONDS))
                .as("the completion thread waits for the copy by closing its lane's stream").isTrue();
        assertThat(batches.released).as("host batch given back while its copy may still run").hasValue(0);
        gated.gate.countDown(); // the copy ends
        assertThat(copy).failsWithin(10, TimeUnit.SECONDS);
        transfer.close();
        assertThat(batches.released).as("host batch released exactly once").hasValue(1);
        assertThat(transfer.releasedHostBatches()).isEqualTo(1);
        assertThatThrownBy(() -> transfer.apply(batches.random(SPEC, 1, null)))
                .isInstanceOf(IllegalStateException.class);
        assertThat(batches.released).as("a batch refused after close is released too").hasValue(2);
        gated.host.close();
        assertThat(gated.counters().allReleased()).as("nothing live after close: %s", gated.counters()).isTrue();
    }

    /**
     * With the device closed under the transfer, a later submit must fail at once (the lane's stream is gone), naming
     * the cause, and release its host batch.
     */
    @Test
    void shouldRefuseLaterSubmitsOnceTheDeviceWasFoundClosedUnderTheTransfer() throws Exception {
        TransferBackPressureTest.GatedDevice gated = new TransferBackPressureTest.GatedDevice();
        TestBatches batches = new TestBatches(gated);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(gated, 2, 2_000);
        gated.closedUnderTransfer = true;
        gated.gate.countDown(); // copies end at once; the event waits still fail
        assertThat(transfer.applyAsync(batches.random(SPEC, 0, null))).failsWithin(10, TimeUnit.SECONDS);

        assertThatThrownBy(() -> transfer.apply(batches.random(SPEC, 1, null)))
                .isInstanceOf(DeviceClosedException.class)
                .hasMessageContaining("Close the transfer before the device");

        assertThat(batches.released).hasValue(2);
        transfer.close();
        gated.host.close();
        assertThat(gated.counters().allReleased()).as("nothing live after close: %s", gated.counters()).isTrue();
    }

    /**
     * The device closed under a submit, between queueing its copy and recording its events (the wrong order again):
     * the submit fails and its wait on the stream cannot start, so the copy may still be reading the host batch. The
     * batch must go back exactly once, after the lane's stream is closed (which waits for the copy); before the fix
     * it was kept for good, and its host block leaked.
     */
    @Test
    void shouldReleaseTheHostBatchOfAFailedSubmitOnceItsStreamIsClosed() {
        HostDevice host = new HostDevice();
        AtomicBoolean closed = new AtomicBoolean();
        AtomicInteger streamCloses = new AtomicInteger();
        AtomicInteger releasedAtFirstStreamClose = new AtomicInteger(-1);
        TestBatches batches = new TestBatches(host);
        Device device = new ForwardingDevice(host) {
            @Override
            public void copyToDevice(long hostAddress, DeviceBuffer dst, long bytes, DeviceStream stream) {
                super.copyToDevice(hostAddress, dst, bytes, stream);
                closed.set(true); // closed on another thread right after the copy was queued
            }

            @Override
            public DeviceStream createStream() {
                return new ForwardingStream(super.createStream()) {
                    @Override
                    public void synchronize() {
                        if (closed.get()) {
                            throw new DeviceClosedException("device closed (test)");
                        }
                        super.synchronize();
                    }

                    @Override
                    public void close() {
                        if (streamCloses.getAndIncrement() == 0) {
                            releasedAtFirstStreamClose.set(batches.released.get());
                        }
                        super.close();
                    }
                };
            }

            @Override
            public DeviceEvent createEvent() {
                DeviceEvent real = super.createEvent();
                return new DeviceEvent() {
                    @Override
                    public void record(DeviceStream stream) {
                        if (closed.get()) {
                            throw new DeviceClosedException("device closed (test)");
                        }
                        real.record(stream);
                    }

                    @Override
                    public boolean isComplete() {
                        return real.isComplete();
                    }

                    @Override
                    public void synchronize() {
                        real.synchronize();
                    }

                    @Override
                    public void close() {
                        real.close();
                    }
                };
            }
        };
        HostBatch batch = batches.random(SPEC, 0, null);
        HostToDeviceTransfer transfer = HostToDeviceTransfer.create(device, 1, 2_000);
        try {
            assertThatThrownBy(() -> transfer.apply(batch)).isInstanceOf(DeviceClosedException.class);

            assertThat(releasedAtFirstStreamClose).as("host batch given back before its copy was awaited").hasValue(0);
            assertThat(batches.released).as("host batch released exactly once").hasValue(1);
            assertThat(transfer.releasedHostBatches()).isEqualTo(1);
        } finally {
            transfer.close();
            host.close();
        }
        assertThat(batches.released).hasValue(1);
        assertThat(host.counters().allReleased()).as("nothing live after close: %s", host.counters()).isTrue();
    }

    /** {@return a thread that counts {@code latch} down after {@code millis}} */
    private static Thread countDownLater(CountDownLatch latch, long millis) {
        return Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            latch.countDown();
        });
    }

    private static void awaitReleased(TestBatches batches, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (batches.released.get() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(batches.released).hasValue(n);
    }

    private static void awaitStreamsFreed(TransferBackPressureTest.GatedDevice device) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (device.counters().streams() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(device.counters().streams()).as("streams freed by the completion thread as it ended").isZero();
    }
}
