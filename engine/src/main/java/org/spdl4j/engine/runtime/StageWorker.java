package org.spdl4j.engine.runtime;

import com.lmax.disruptor.AlertException;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * One thread's duty cycle in a stage: {@link #work()} loops until end of stream or until the pipeline stops. Leaving
 * by alert or interrupt is the normal way out on close; an interrupt while the pipeline runs (not close's), or
 * anything else that escapes, fails the pipeline, naming the stage.
 *
 * <p><b>Threading:</b> runs on the thread named {@link #threadName()}; writes only its own {@link WorkerStats}.
 */
abstract class StageWorker implements Runnable {
    final PipelineControl control;
    final String stage;
    final int index;
    final WorkerStats stats;

    StageWorker(PipelineControl control, String stage, int index, WorkerStats stats) {
        this.control = control;
        this.stage = stage;
        this.index = index;
        this.stats = stats;
    }

    /** {@return {@code spdl4j-<pipeline>-<stage>-<n>}} */
    final String threadName() {
        return "spdl4j-" + control.pipeline() + "-" + stage + "-" + index;
    }

    @Override
    public final void run() {
        try {
            work();
        } catch (AlertException | InterruptedException stopped) {
            if (control.running().isRunning()) {
                // Not close's doing (close stops the pipeline before it interrupts): something interrupted an engine
                // thread while it waited. Leaving quietly would leave the consumer waiting for an end that never
                // comes.
                control.fail(stage, "worker " + threadName() + " was interrupted while the pipeline ran (" + stopped
                        + "). Only close() may interrupt an engine thread: a stage function must not interrupt the "
                        + "thread it runs on, nor may other code interrupt spdl4j threads", stopped);
            }
        } catch (Throwable t) {
            if (control.running().isRunning()) {
                control.fail(stage, "worker " + threadName() + " died: " + t
                        + ". This is an error in a stage function (an Error) or in the engine", t);
            }
        }
    }

    /**
     * The duty cycle.
     *
     * @throws Exception when stopped (alert, interrupt) or on an engine error
     */
    abstract void work() throws Exception;

    /**
     * After a stage function returned: clears an interrupt it left on this thread (a function that catches
     * {@code InterruptedException} and restores the flag, as the idiom goes), which would otherwise make this worker's
     * next wait fail or spin. Close's interrupt is kept: close stops the pipeline before it interrupts, and an
     * interrupt seen here happens-before what follows, so a stopped pipeline is seen and the flag set again.
     * A volatile read when no interrupt is pending.
     */
    final void clearTaskInterrupt() {
        control.clearTaskInterrupt();
    }

    /**
     * Records back-pressure known only after the fact (results an async stage held behind a blocked publish). Waits
     * in the ring's reader and publisher and in a reorder window's wait for room report themselves while they last.
     */
    final void recordBackPressure(long nanos) {
        if (nanos > 0) {
            stats.onBackPressured(nanos);
        }
    }

    /**
     * For a run loop that writes into the slots it claims itself ({@link BoundedPublisher#ownsClaims()}): publishes
     * what it wrote after {@code published} up to {@code last} (one release store of the cursor) and counts it out.
     *
     * @param out       the worker's publisher
     * @param published the last sequence already published
     * @param last      the last sequence written
     */
    final void publishWritten(BoundedPublisher out, long published, long last) {
        if (last > published) {
            out.publishRange(published + 1, last);
            stats.onItemsOut((int) (last - published));
        }
    }

    /**
     * A run loop found its output ring full at {@code last}: publishes what it wrote (the consumers cannot free a
     * slot past an unpublished one), then waits for one slot, counting the wait as back-pressure. The caller counts
     * its items in first, so that they count in before they count out.
     *
     * @param out       the worker's publisher
     * @param published the last sequence already published
     * @param last      the last sequence written, which is the claim limit
     * @return the claimed sequence ({@code last + 1}), or -1 if the pipeline stopped while waiting
     */
    final long publishAndAwaitRoom(BoundedPublisher out, long published, long last) {
        out.claimedThrough(last);
        publishWritten(out, published, last);
        return out.claimSlot();
    }
}
