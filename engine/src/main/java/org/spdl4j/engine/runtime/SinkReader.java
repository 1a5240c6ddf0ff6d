package org.spdl4j.engine.runtime;

import java.util.concurrent.TimeoutException;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.spdl4j.engine.PipelineFailedException;
import org.spdl4j.engine.ring.ItemSlots;
import org.spdl4j.engine.ring.SingleConsumerPoller;
import org.spdl4j.engine.stats.WaitKind;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * The consumer's end of the pipeline: polls the last link and waits by the sink's idle strategy with a deadline,
 * watching for failure and close. Its stats are the training loop's view: items taken, and time starved (waiting
 * for the pipeline), which is the loop's data-loading wait.
 *
 * <p><b>Threading:</b> one consumer thread at a time. <b>Allocation:</b> none per item (a timeout allocates its
 * exception).
 */
final class SinkReader {
    private static final int BUSY_CHECK_EVERY = 16;

    private final SingleConsumerPoller in;
    private final IdleStrategy idle;
    private final PipelineControl control;
    private final WorkerStats stats;
    /**
     * Polls between the checks of failure, close, interrupt and the clock, minus one: a busy-spinning consumer checks
     * every {@value #BUSY_CHECK_EVERY}th empty poll (a clock read costs 25-50 ns on common VMs, more than the poll;
     * the checks still come every few hundred ns), every other policy at each one (they sleep or yield between).
     */
    private final int checkMask;
    private boolean ended;
    private long lastEpoch;

    SinkReader(SingleConsumerPoller in, IdleStrategy idle, PipelineControl control, WorkerStats stats) {
        this.in = in;
        this.idle = idle;
        this.control = control;
        this.stats = stats;
        this.checkMask = idle instanceof BusySpinIdleStrategy ? BUSY_CHECK_EVERY - 1 : 0;
    }

    /**
     * Takes the next item.
     *
     * @param timeoutNanos how long to wait
     * @return the item, or {@code null} at end of stream
     * @throws TimeoutException     if no item came within the timeout
     * @throws InterruptedException if the calling thread was interrupted while waiting
     * @throws PipelineFailedException if the pipeline failed, or the source failed and its items are all consumed
     * @throws IllegalStateException if the pipeline was closed
     */
    Object next(long timeoutNanos) throws TimeoutException, InterruptedException {
        checkFailure();
        if (ended) {
            return endOfStream();
        }
        SingleConsumerPoller in = this.in;
        if (!in.poll()) {
            await(timeoutNanos);
        }
        if (ItemSlots.isEndMarker(in.peek())) {
            // A failing worker sets the failure before it counts itself finished, and the end marker is published
            // after that count, so a failure that raced the end is visible here.
            checkFailure();
            in.release();
            ended = true;
            return endOfStream();
        }
        lastEpoch = in.epochIfWritten();
        Object item = in.swapOut(); // close() may sweep this buffer from another thread: one of us gets it
        in.release();
        if (item == null) {
            throw new IllegalStateException("pipeline '" + control.pipeline() + "' is closed");
        }
        stats.onItemIn();
        stats.onItemOut();
        return item;
    }

    long lastEpoch() {
        return lastEpoch;
    }

    boolean isEnded() {
        return ended;
    }

    private void await(long timeoutNanos) throws TimeoutException, InterruptedException {
        long start = System.nanoTime();
        long now = start;
        stats.waitStarted(WaitKind.STARVED, start, 1); // per wait: a snapshot sees the loop's wait while it lasts
        idle.reset();
        try {
            for (int empty = 0;; empty++) {
                if (in.poll()) {
                    return;
                }
                if ((empty & checkMask) == 0) {
                    checkFailure();
                    if (!control.running().isRunning()) {
                        checkFailure(); // a failure stops the pipeline too: report it, not "closed", if it raced us
                        throw new IllegalStateException("pipeline '" + control.pipeline() + "' is closed");
                    }
                    if (Thread.interrupted()) {
                        throw new InterruptedException("interrupted while waiting for the next item of pipeline '"
                                + control.pipeline() + "'");
                    }
                    now = System.nanoTime();
                    if (now - start >= timeoutNanos) {
                        throw new TimeoutException("no item from pipeline '" + control.pipeline() + "' within "
                                + timeoutNanos / 1_000_000 + " ms");
                    }
                }
                idle.idle();
            }
        } finally {
            // Busy-spin: the last reading before the item came (under by at most BUSY_CHECK_EVERY empty polls, tens
            // of ns), so no clock read lies between the item's arrival and its return. Other policies sleep between
            // polls, which a stale reading would leave out: they read the clock again.
            stats.waitEnded(checkMask == 0 ? System.nanoTime() : now);
        }
    }

    private void checkFailure() {
        PipelineFailedException failure = control.failure();
        if (failure != null) {
            throw failure;
        }
    }

    private Object endOfStream() {
        PipelineFailedException sourceFailure = control.sourceFailure();
        if (sourceFailure != null) {
            throw sourceFailure;
        }
        return null;
    }
}
