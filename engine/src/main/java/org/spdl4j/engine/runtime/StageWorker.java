package org.spdl4j.engine.runtime;

import com.lmax.disruptor.AlertException;
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
     * Records back-pressure known only after the fact (a reorder window's wait for room, results an async stage held
     * behind a blocked publish). Waits in the ring's reader and publisher report themselves while they last.
     */
    final void recordBackPressure(long nanos) {
        if (nanos > 0) {
            stats.onBackPressured(nanos);
        }
    }
}
