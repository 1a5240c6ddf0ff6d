package org.spdl4j.engine;

import org.spdl4j.engine.runtime.ReportedFailures;

/**
 * Lets a stage function count a failure in its stage's stats without throwing: a task that carries several samples
 * (a slot of a batch that must still be published) fails one of them and goes on. The failure counts in the stage's
 * {@code failed} column and against its {@link FailureBudget}, and is logged naming the stage and the item, exactly
 * as a task that threw.
 *
 * <p><b>Threading:</b> call from the stage function, on the stage's own worker thread (a {@code pipe} stage's
 * worker, or the source's thread: a source that skips a bad part of its input and goes on counts it in the source's
 * {@code failed} column, never against a budget); the worker binds its stage once when it starts, so the call is a
 * thread-local read on the failure path only. On any other thread (a virtual-thread or async task, the consumer) nothing is counted and {@code false} is
 * returned.
 */
public final class StageFailureReport {
    private StageFailureReport() {
    }

    /**
     * Counts a failed item in the calling worker's stage.
     *
     * @param item  what failed (its text names it in the log)
     * @param cause why
     * @return whether a stage worker counted it ({@code false} when called off a stage worker thread)
     */
    public static boolean report(Object item, Throwable cause) {
        return ReportedFailures.report(item, cause);
    }
}
