package org.spdl4j.engine.runtime;

import com.lmax.disruptor.AlertException;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * One thread's duty cycle in a stage: {@link #work()} loops until end of stream or until the pipeline stops. Leaving
 * by alert or interrupt is the normal way out on close; anything else that escapes is an engine failure and fails the
 * pipeline, naming the stage.
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
            // close() or a failure elsewhere stopped the pipeline: leave quietly
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

    /** Records back-pressure time gathered by the publisher since the last call. */
    final void recordBackPressure(long nanos) {
        if (nanos > 0) {
            stats.onBackPressured(nanos);
        }
    }

    /** Records time spent waiting for input. */
    final void recordStarved(long nanos) {
        if (nanos > 0) {
            stats.onStarved(nanos);
        }
    }
}
