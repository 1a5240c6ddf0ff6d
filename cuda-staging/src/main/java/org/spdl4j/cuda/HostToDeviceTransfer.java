package org.spdl4j.cuda;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline's host-to-device copy stage: copies each {@link HostBatch} into pooled device memory on one of K
 * streams (round robin, one copy in flight per stream, so copies overlap with kernels and with each other), keeps at
 * most K copies in flight, releases each host batch once its copy has completed, and returns a {@link DeviceBatch}
 * that carries the copy's ready event.
 *
 * <pre>
 *  submit thread:  permit (K) -> slot[seq % K] -> allocate -> cuMemcpyHtoDAsync -> record ready + done -> pending
 *  completion thread ("spdl4j-h2d-..."): take pending in order -> wait done -> release host batch -> permit back
 * </pre>
 *
 * <p><b>Use:</b> as a plain {@code Function} ({@link #apply}: returns at once, the consumer waits on the batch's
 * event) or as an async stage ({@link #applyAsync}: the future completes when the data is on the device).
 * <b>Threads:</b> thread-safe; submissions are serialized by a lock (one driver enqueue, microseconds), so one
 * thread is the intended caller. Completions run on the transfer's one completion thread; dependents of the
 * {@code applyAsync} future registered without an executor run there too and must be short.
 * <b>Blocking:</b> a submit blocks while K copies are in flight (back-pressure), at most
 * {@link CudaConfiguration#SUBMIT_TIMEOUT_MS}, without holding the submit lock, so {@link #close()} never waits
 * behind it: a submit still waiting when the transfer closes fails at once. <b>Ownership:</b> a submitted host
 * batch belongs to the transfer and is released exactly once, when its copy completes or fails; the returned batch
 * belongs to the caller.
 * <b>Allocation:</b> one {@code DeviceBatch} (and future, for {@code applyAsync}) per batch; slots, streams, events
 * and device memory are reused.
 */
public final class HostToDeviceTransfer implements Function<HostBatch, DeviceBatch>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HostToDeviceTransfer.class);
    private static final AtomicLong THREAD_IDS = new AtomicLong();
    private static final TransferSlot POISON = new TransferSlot(null, null);

    private final Device device;
    private final int inFlight;
    private final long submitTimeoutMs;
    private final TransferSlot[] slots;
    private final EventPool events;
    private final Semaphore permits;
    /** Armed slots in submission order, then the poison pill; K + 1 entries at most, so add never fails. */
    private final ArrayBlockingQueue<TransferSlot> pending;
    private final ReentrantLock submitLock = new ReentrantLock();
    private final AtomicLong releasedHostBatches = new AtomicLong();
    private final Thread completer;
    private long submitted; // guarded by submitLock
    private boolean closed; // guarded by submitLock
    /** Set by {@link #close} when it gives up waiting: the completion thread frees the lanes if it ever ends. */
    private volatile boolean handedOff;
    /**
     * Set when a wait on a copy found the device closed under the transfer: the lane's stream was closed to wait for
     * the copy, so no later submit may queue work (every one fails, releasing its host batch).
     */
    private volatile boolean deviceClosedUnder;
    /** Set by the completion thread as it ends. */
    private volatile boolean completerEnded;
    /** Claimed by whichever thread destroys the streams and events, so exactly one does. */
    private final AtomicBoolean lanesFreed = new AtomicBoolean();
    /** Counted down when the first close() has done what it does; a second close() waits for it. */
    private final CountDownLatch firstCloseDone = new CountDownLatch(1);
    /** The thread of the first close(): a close on it again (from a callback the first ran) must not wait for it. */
    private volatile Thread firstCloser;
    /** Whether the first close() ran on the completion thread, which it cannot wait for: a later close waits. */
    private volatile boolean firstCloseHandedOff;

    private HostToDeviceTransfer(Device device, int inFlight, long submitTimeoutMs) {
        this.device = device;
        this.inFlight = inFlight;
        this.submitTimeoutMs = submitTimeoutMs;
        this.events = new EventPool(device);
        this.permits = new Semaphore(inFlight);
        this.pending = new ArrayBlockingQueue<>(inFlight + 1);
        this.slots = new TransferSlot[inFlight];
        try {
            for (int i = 0; i < inFlight; i++) {
                DeviceStream stream = device.createStream();
                try {
                    slots[i] = new TransferSlot(stream, device.createEvent());
                } catch (RuntimeException | Error e) {
                    stream.close(); // not in a slot yet: closeSlots below would miss it
                    throw e;
                }
            }
        } catch (RuntimeException | Error e) {
            closeSlots();
            closeLogged(events, "the pooled events");
            throw e;
        }
        this.completer = new Thread(this::completeInOrder, "spdl4j-h2d-" + device.name().replace(' ', '_') + "-"
                + THREAD_IDS.incrementAndGet());
        completer.setDaemon(true);
    }

    /**
     * A transfer with K = {@link CudaConfiguration#IN_FLIGHT_DEFAULT} (4).
     *
     * @param device the target device
     * @return the running transfer; close it before the device
     */
    public static HostToDeviceTransfer create(Device device) {
        return create(device, CudaConfiguration.IN_FLIGHT_DEFAULT);
    }

    /**
     * A transfer with its own K streams and completion thread.
     *
     * @param device   the target device
     * @param inFlight K: copies in flight at most, one stream each, at least 1
     * @return the running transfer; close it before the device
     */
    public static HostToDeviceTransfer create(Device device, int inFlight) {
        return create(device, inFlight, CudaConfiguration.SUBMIT_TIMEOUT_MS);
    }

    /**
     * A transfer with its own submit timeout (tests: {@link CudaConfiguration#SUBMIT_TIMEOUT_MS} is 30 s).
     *
     * @param device          the target device
     * @param inFlight        K: copies in flight at most, one stream each, at least 1
     * @param submitTimeoutMs longest a submit waits for a free copy slot, and {@link #close()} for the copies
     * @return the running transfer; close it before the device
     */
    static HostToDeviceTransfer create(Device device, int inFlight, long submitTimeoutMs) {
        Objects.requireNonNull(device, "device");
        if (inFlight < 1) {
            throw new IllegalArgumentException("inFlight must be >= 1, got " + inFlight);
        }
        if (submitTimeoutMs < 0) {
            throw new IllegalArgumentException("submitTimeoutMs must be >= 0, got " + submitTimeoutMs);
        }
        HostToDeviceTransfer t = new HostToDeviceTransfer(device, inFlight, submitTimeoutMs);
        try {
            t.completer.start(); // started here, not in the constructor, so no thread sees a half-built transfer
        } catch (RuntimeException | Error e) { // no thread (out of native threads): nothing else will free the lanes
            t.freeLanes();
            throw e;
        }
        return t;
    }

    /**
     * Queues the copy of {@code batch} and returns at once; the copy may still be running.
     *
     * @param batch the host batch; ownership passes to the transfer
     * @return the device batch, owned by the caller; wait on its {@link DeviceBatch#readyEvent()} before reading
     * @throws CudaDriverException when the driver refuses (the host batch has been released)
     * @throws IllegalStateException when closed (also while waiting for a free slot), interrupted or timed out
     *                               waiting for a free slot, or when the device was closed before the transfer (a
     *                               {@link DeviceClosedException}; the host batch has been released)
     */
    @Override
    public DeviceBatch apply(HostBatch batch) {
        return submit(batch, null);
    }

    /**
     * Queues the copy of {@code batch}; the future completes, on the completion thread, when the data is on the
     * device.
     *
     * @param batch the host batch; ownership passes to the transfer
     * @return the future device batch (failed, with the host batch released, when the copy cannot be queued or fails)
     */
    public CompletableFuture<DeviceBatch> applyAsync(HostBatch batch) {
        CompletableFuture<DeviceBatch> future = new CompletableFuture<>(); // the async contract needs one per batch
        try {
            submit(batch, future);
        } catch (RuntimeException e) {
            future.completeExceptionally(e);
        }
        return future;
    }

    private DeviceBatch submit(HostBatch batch, CompletableFuture<DeviceBatch> future) {
        Objects.requireNonNull(batch, "batch");
        long bytes = batch.spec().byteSize();
        // Outside submitLock: a submitter held up by back-pressure must not hold close() up with it. Any permit
        // will do: the completion thread frees lanes in submission order, so with this permit held fewer than K
        // copies are pending, and they sit on the lanes just before slots[submitted % K].
        awaitPermit(batch);
        submitLock.lock();
        try {
            if (closed) {
                permits.release(); // hands close()'s wake-up permit (or our own) on to the next waiting submitter
                releaseHost(batch);
                throw new IllegalStateException("transfer to " + device.name() + " is closed; the batch was not "
                        + "copied (its host batch has been released)");
            }
            if (deviceClosedUnder) {
                permits.release();
                releaseHost(batch);
                throw new DeviceClosedException(device.name() + " was closed before the transfer to it; the batch was "
                        + "not copied (its host batch has been released). Close the transfer before the device");
            }
            TransferSlot slot = slots[(int) (submitted++ % inFlight)]; // free: the permit proves its last copy completed
            DeviceBuffer buffer = null;
            DeviceEvent ready = null;
            boolean copyQueued = false;
            try {
                buffer = device.allocate(bytes);
                ready = events.acquire();
                device.copyToDevice(batch.address(), buffer, bytes, slot.stream);
                copyQueued = true;
                ready.record(slot.stream);
                slot.done.record(slot.stream);
            } catch (RuntimeException | Error e) {
                // Give the lane back with the permit: lanes go round in submission order, and the completion thread
                // frees them in that order, so a failed submit that kept its lane would send the next batch to a lane
                // whose copy is still pending (held under submitLock, so no other submit moved the counter since).
                submitted--;
                abandon(e, batch, slot, buffer, ready, copyQueued);
                throw e;
            }
            DeviceBatch deviceBatch = new DeviceBatch(buffer, batch.spec(), ready, events);
            slot.arm(batch, deviceBatch, future);
            pending.add(slot); // the queue's lock publishes the slot's fields to the completion thread
            return deviceBatch;
        } finally {
            submitLock.unlock();
        }
    }

    private void awaitPermit(HostBatch batch) {
        boolean acquired;
        try {
            acquired = permits.tryAcquire(submitTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            releaseHost(batch);
            throw new IllegalStateException("interrupted waiting for a free copy slot on " + device.name(), e);
        }
        if (!acquired) {
            releaseHost(batch);
            throw new IllegalStateException("no copy slot on " + device.name() + " freed within "
                    + submitTimeoutMs + " ms (" + inFlight + " copies in flight); is the GPU hung?");
        }
    }

    /**
     * Undoes a submit that failed part way; the host batch is released once, when no copy can be reading it. Never
     * throws: a step that fails is added to {@code failure} as suppressed and the later steps still run, so the
     * permit (the lane) and the host batch always go back. When the device was closed under the transfer the copy is
     * awaited by closing the lane's stream ({@link #awaitCopyOnClosedDevice}).
     */
    private void abandon(Throwable failure, HostBatch batch, TransferSlot slot, DeviceBuffer buffer, DeviceEvent ready,
                         boolean copyQueued) {
        try {
            try {
                if (copyQueued) {
                    slot.stream.synchronize();
                }
            } catch (DeviceClosedException e) { // nothing was waited for yet
                failure.addSuppressed(e);
                awaitCopyOnClosedDevice(slot, failure);
            } catch (RuntimeException | Error e) { // a driver error ends the copy
                failure.addSuppressed(e);
            }
            try {
                if (ready != null) {
                    events.release(ready);
                }
            } catch (RuntimeException | Error e) {
                failure.addSuppressed(e);
            }
            try {
                if (buffer != null) {
                    buffer.close();
                }
            } catch (RuntimeException | Error e) {
                failure.addSuppressed(e);
            }
        } finally {
            permits.release();
            releaseHost(batch);
        }
    }

    /**
     * Waits for the copy on {@code slot}'s lane after the device refused a wait on it (closed under the transfer, the
     * wrong order): the lane's stream is closed, which waits for its queued work also after the device's close (see
     * {@link DeviceStream#close()}), so the host batch can then go back. The lane is gone with its stream, so every
     * later submit fails at once. A close that throws is a driver error, which ends the copy too; it is added to
     * {@code failure}. Runs on the thread that owns the lane for now (the submitter holding its permit, or the
     * completion thread before it returns the permit), so nothing else uses the stream meanwhile.
     */
    private void awaitCopyOnClosedDevice(TransferSlot slot, Throwable failure) {
        deviceClosedUnder = true; // before the permit goes back: the next submitter on this lane sees it
        LOG.error("transfer to {}: the device was closed before the transfer; waiting for a copy by closing its lane's "
                + "stream. Close the transfer before the device", device.name());
        try {
            slot.stream.close();
        } catch (RuntimeException | Error e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * The completion thread: waits for each copy in submission order and hands its resources back. A slot whose
     * completion throws (even an {@link Error} from a host batch's release) is logged and the loop goes on, so its
     * permit still comes back and later copies still complete; the thread ends only at the poison pill.
     */
    private void completeInOrder() {
        try {
            while (true) {
                TransferSlot slot;
                try {
                    slot = pending.take();
                } catch (InterruptedException e) {
                    // Only close() interrupts this thread, to cut a wait on a copy short; the copies queued behind it
                    // still need their host batches released, and the poison pill behind them ends the loop.
                    continue;
                }
                if (slot == POISON) {
                    break;
                }
                try {
                    complete(slot);
                } catch (Throwable t) { // one bad slot must not end the thread: its lanes would never come back
                    LOG.error("transfer to {}: completing a copy failed; the transfer goes on", device.name(), t);
                }
            }
        } finally {
            // Dekker hand-off with close(): it sets handedOff then reads completerEnded; this thread the other way
            // round. With volatiles at least one of the two sees the other's store, and lanesFreed lets only one
            // free the lanes. In a finally, so close() frees the lanes whatever ended this thread.
            completerEnded = true;
            if (handedOff) {
                freeLanes();
            }
        }
    }

    /** Waits for one slot's copy and hands its resources back (the completion thread, in submission order). */
    private void complete(TransferSlot slot) {
        Throwable failure = null;
        try {
            slot.done.synchronize(); // sleeps in the driver (CU_EVENT_BLOCKING_SYNC) until the DMA has finished
        } catch (DeviceClosedException e) {
            // The device was closed under the transfer (it must be closed after it): nothing was waited for, and
            // while anything else in the process keeps the GPU context alive the DMA may still read the host batch.
            // The lane's stream can still be waited for: closing it does.
            failure = e;
            awaitCopyOnClosedDevice(slot, e);
        } catch (RuntimeException | Error e) {
            // A driver error ends the copy. An Error too: the slot must still be disarmed, its host batch released
            // and its permit returned, or a lane is lost for good and every later submit waits for a permit that
            // never comes.
            failure = e;
        }
        HostBatch host = slot.host;
        DeviceBatch deviceBatch = slot.deviceBatch;
        CompletableFuture<DeviceBatch> future = slot.future;
        slot.disarm();
        try {
            releaseHost(host);
        } finally {
            permits.release(); // happens-before the next submitter's acquire: it sees the slot disarmed
        }
        if (future != null) {
            if (failure == null) {
                if (!future.complete(deviceBatch)) {
                    // close() gave up on this copy and failed the future already: nobody will take the batch.
                    closeQuietly(deviceBatch, new IllegalStateException("copy completed after close"));
                }
            } else {
                closeQuietly(deviceBatch, failure);
                future.completeExceptionally(failure);
            }
        } else if (failure != null) {
            LOG.error("copy of {} to {} failed; its consumer will see the error on its ready event", host,
                    device.name(), failure);
        }
    }

    /**
     * Releases a host batch once; a release that throws (any {@link Throwable}: it is the owner's callback) is
     * logged, so the caller's own duty (a permit, a future) still runs.
     */
    private void releaseHost(HostBatch batch) {
        try {
            batch.release();
        } catch (Throwable t) {
            LOG.error("transfer to {}: releasing host batch {} threw; its memory may not be back with its owner",
                    device.name(), batch, t);
        } finally {
            releasedHostBatches.incrementAndGet();
        }
    }

    private static void closeQuietly(DeviceBatch batch, Throwable failure) {
        try {
            batch.close();
        } catch (RuntimeException | Error e) { // the future still has to be completed
            failure.addSuppressed(e);
        }
    }

    /** {@return K, the most copies in flight} */
    public int inFlightLimit() {
        return inFlight;
    }

    /** {@return host batches released so far (copies completed, failed or refused)} */
    public long releasedHostBatches() {
        return releasedHostBatches.get();
    }

    /**
     * Stops taking batches, waits for the copies in flight (releasing their host batches), stops the completion
     * thread and destroys the streams and pooled events. Device batches still held by consumers stay valid until
     * they are closed. Closing again does nothing.
     */
    @Override
    public void close() {
        close(submitTimeoutMs);
    }

    /**
     * Closes, waiting up to {@code waitMillis} (then a quarter of it after an interrupt of the completion thread) for
     * the copies in flight; an interrupt of the closing thread does not cut the wait short (it is kept for the caller
     * afterwards). When the copies do not finish (a hung device), every copy still pending fails its
     * {@code applyAsync} future now, so no consumer waits forever; its host batch stays held, as the DMA may still
     * read it, and the completion thread releases it, and frees the streams and events, if the copy ever finishes. A
     * submit still waiting for a free slot fails at once with an {@link IllegalStateException} saying the transfer is
     * closed.
     *
     * <p>A second {@code close()} waits until the first has finished (bounded), so whoever closes the device next
     * finds no copy in flight. Called from a completion callback (a stage of an {@code applyAsync} future, which runs
     * on the completion thread), close cannot wait for that thread: it returns at once, the completion thread
     * finishes the copies in flight and frees the streams and events when it ends, and a later close from another
     * thread waits for that as a first close would. A close from a callback that this close itself runs (a future it
     * fails) returns at once.
     *
     * @param waitMillis how long to wait for the copies in flight (0: not at all)
     */
    void close(long waitMillis) {
        boolean first;
        submitLock.lock();
        try {
            first = !closed;
            if (first) {
                closed = true;
                pending.add(POISON); // after every armed slot, so the completion thread drains them first
            }
        } finally {
            submitLock.unlock();
        }
        Thread me = Thread.currentThread();
        boolean onCompleter = me == completer;
        if (!first) {
            if (onCompleter || me == firstCloser) {
                return; // the first close is under way on this very thread (a callback it ran closes again)
            }
            awaitFirstClose(waitMillis);
            if (firstCloseHandedOff) {
                awaitCopies(waitMillis); // the first ran on the completion thread and could not wait: this one does
            }
            return;
        }
        firstCloser = me;
        try {
            // One extra permit wakes a submitter waiting for a slot; it sees `closed` under the lock, fails, and
            // releases the permit again, which wakes the next. Nothing is armed after close: the permit costs nothing.
            permits.release();
            if (onCompleter) {
                firstCloseHandedOff = true;
                handedOff = true; // this thread frees the lanes when it ends, after the copies still queued
                return;
            }
            awaitCopies(waitMillis);
        } finally {
            firstCloseDone.countDown();
        }
    }

    /**
     * Waits for the completion thread to end (the copies in flight, then the poison), then frees the lanes; or, when
     * it does not end in time, fails the pending futures and hands the lanes to it. Safe to run on two threads at
     * once (a second close after a first on the completion thread): failing a future and freeing the lanes happen
     * once each.
     */
    private void awaitCopies(long waitMillis) {
        boolean interrupted = joinUninterruptibly(completer, waitMillis);
        if (completer.isAlive()) {
            completer.interrupt();
            interrupted |= joinUninterruptibly(completer, Math.max(1, waitMillis / 4));
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (completerEnded) {
            freeLanes();
            return;
        }
        // It may still sit in cuEventSynchronize on one of these events (an interrupt cannot wake a driver call):
        // destroying them under it is undefined behaviour in the driver, so the lanes stay until it ends.
        int failed = failPendingFutures(waitMillis);
        LOG.error("{} did not finish within {} ms (a copy that never completes: a hung device?); {} pending "
                + "future(s) failed; host batches, streams and events stay allocated until its copies end",
                completer.getName(), waitMillis, failed);
        handedOff = true;
        if (completerEnded) {
            freeLanes();
        }
    }

    /**
     * A second close waits for the first, at most as long as the first can take and 5 s more: a first close held up
     * by a lock its caller holds must not hang the second for good.
     */
    private void awaitFirstClose(long waitMillis) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis + waitMillis / 4 + 5_000);
        try {
            for (long left; (left = deadline - System.nanoTime()) > 0; ) {
                try {
                    if (firstCloseDone.await(left, TimeUnit.NANOSECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            LOG.error("transfer to {}: a second close() gave up waiting for the first after {} ms", device.name(),
                    waitMillis + waitMillis / 4 + 5_000);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits up to {@code millis} for {@code t} to end, through interrupts of the calling thread (an interrupted
     * closer must still wait for copies that are about to finish, or it would fail them and release the context
     * under them).
     *
     * @return whether the calling thread was interrupted meanwhile (the flag is cleared; the caller restores it)
     */
    private static boolean joinUninterruptibly(Thread t, long millis) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left; t.isAlive() && (left = deadline - System.nanoTime()) > 0; ) {
            try {
                t.join(Duration.ofNanos(left)); // never join(0), which would wait forever
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }

    /**
     * Fails the {@code applyAsync} future of every armed slot. Races with the completion thread are benign: a
     * future completes once (the first completion wins, and the completion thread closes a batch it could not
     * deliver), and a slot it disarmed meanwhile reads as {@code null} here or holds a future already done.
     */
    private int failPendingFutures(long waitMillis) {
        int failed = 0;
        for (TransferSlot slot : slots) {
            CompletableFuture<DeviceBatch> future = slot.future;
            if (future != null && future.completeExceptionally(new IllegalStateException("transfer to "
                    + device.name() + " closed with this copy still pending after " + waitMillis + " ms (a hung "
                    + "device?); the batch was not delivered"))) {
                failed++;
            }
        }
        return failed;
    }

    /** Destroys the streams and pooled events, once, from whichever thread gets here first after the copies. */
    private void freeLanes() {
        if (lanesFreed.compareAndSet(false, true)) {
            closeSlots();
            closeLogged(events, "the pooled events");
        }
    }

    /** Destroys every lane's stream and event; one that fails to close is logged and the others still close. */
    private void closeSlots() {
        for (TransferSlot slot : slots) {
            if (slot != null) {
                closeLogged(slot.stream, "a lane's stream");
                closeLogged(slot.done, "a lane's event");
            }
        }
    }

    private void closeLogged(AutoCloseable resource, String what) {
        try {
            resource.close();
        } catch (Exception e) {
            LOG.error("transfer to {}: closing {} failed; it may leak", device.name(), what, e);
        }
    }

    @Override
    public String toString() {
        return "HostToDeviceTransfer[" + device.name() + ", K=" + inFlight + ", released=" + releasedHostBatches() + "]";
    }
}
