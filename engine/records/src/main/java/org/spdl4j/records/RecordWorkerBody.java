package org.spdl4j.records;

import com.lmax.disruptor.AlertException;
import org.spdl4j.engine.runtime.PipelineControl;

/**
 * The work loop of a record stage's thread, and how every such thread ends: an alert or an interrupt once the
 * pipeline stopped (close, or a failure elsewhere) ends the thread quietly; an interrupt while it runs, or anything
 * else thrown, fails it, naming the stage.
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
            if (control.running().isRunning()) { // close stops the pipeline before it alerts or interrupts
                control.fail(stage, "record worker was interrupted while the pipeline ran (" + stopped + "). Only "
                        + "close() may interrupt an engine thread", stopped);
            }
        } catch (Throwable t) {
            if (control.running().isRunning()) {
                control.fail(stage, "record worker died: " + t, t);
            }
        }
    }
}
