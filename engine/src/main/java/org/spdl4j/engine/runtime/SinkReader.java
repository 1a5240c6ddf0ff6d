package org.spdl4j.engine.runtime;

import java.util.concurrent.TimeoutException;
import org.agrona.concurrent.IdleStrategy;
import org.spdl4j.engine.PipelineFailedException;
import org.spdl4j.engine.ring.SingleConsumerPoller;
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
    private final SingleConsumerPoller in;
    private final IdleStrategy idle;
    private final PipelineControl control;
    private final WorkerStats stats;
    private boolean ended;
    private long lastEpoch;

    SinkReader(SingleConsumerPoller in, IdleStrategy idle, PipelineControl control, WorkerStats stats) {
        this.in = in;
        this.idle = idle;
        this.control = control;
        this.stats = stats;
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
        if (!in.poll()) {
            await(timeoutNanos);
        }
        if (in.isEnd()) {
            // A failing worker sets the failure before it counts itself finished, and the end marker is published
            // after that count, so a failure that raced the end is visible here.
            checkFailure();
            in.release();
            ended = true;
            return endOfStream();
        }
        lastEpoch = in.epoch();
        Object item = in.takeAtomically(); // close() may sweep this buffer from another thread: one of us gets it
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
        idle.reset();
        try {
            for (;;) {
                if (in.poll()) {
                    return;
                }
                checkFailure();
                if (!control.running().isRunning()) {
                    throw new IllegalStateException("pipeline '" + control.pipeline() + "' is closed");
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for the next item of pipeline '"
                            + control.pipeline() + "'");
                }
                if (System.nanoTime() - start >= timeoutNanos) {
                    throw new TimeoutException("no item from pipeline '" + control.pipeline() + "' within "
                            + timeoutNanos / 1_000_000 + " ms");
                }
                idle.idle();
            }
        } finally {
            stats.onStarved(System.nanoTime() - start);
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
