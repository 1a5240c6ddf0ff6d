package org.spdl4j.engine.record;

import com.lmax.disruptor.AlertException;
import org.spdl4j.engine.runtime.PipelineControl;

/**
 * The work loop of a record stage's thread, and how every such thread ends: an alert or an interrupt means the
 * pipeline is closing (or failed elsewhere) and ends the thread quietly; anything else thrown while the pipeline runs
 * fails it, naming the stage.
 */
@FunctionalInterface
interface RecordWorkerBody {
    /**
     * Runs the loop until end of stream or stop.
     *
     * @throws AlertException       when the ring's barrier is alerted (close)
     * @throws InterruptedException when the thread is interrupted (close)
     */
    void work() throws AlertException, InterruptedException;

    /**
     * Runs {@code body} on the calling (worker) thread with the ending rules above.
     *
     * @param control the pipeline's control
     * @param stage   the stage's name, for the failure
     * @param body    the loop
     */
    static void runGuarded(PipelineControl control, String stage, RecordWorkerBody body) {
        try {
            body.work();
        } catch (AlertException | InterruptedException stopped) {
            // closed or failed elsewhere
        } catch (Throwable t) {
            if (control.running().isRunning()) {
                control.fail(stage, "record worker died: " + t, t);
            }
        }
    }
}
