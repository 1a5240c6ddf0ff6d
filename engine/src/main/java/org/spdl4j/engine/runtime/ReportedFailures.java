package org.spdl4j.engine.runtime;

import org.spdl4j.engine.stats.WorkerStats;

/**
 * The stage a worker thread runs, for failures its tasks report without throwing
 * ({@link org.spdl4j.engine.StageFailureReport}). Bound once when a sync worker starts, unbound when it ends.
 *
 * <p><b>Threading:</b> a thread-local per worker thread; read on the failure path only.
 */
public final class ReportedFailures {
    private static final ThreadLocal<Binding> BOUND = new ThreadLocal<>();

    private ReportedFailures() {
    }

    static void bind(StageFailures failures, WorkerStats worker) {
        BOUND.set(new Binding(failures, worker));
    }

    static void unbind() {
        BOUND.remove();
    }

    /**
     * Counts a failed item in the calling worker's stage.
     *
     * @param item  what failed
     * @param cause why
     * @return whether the calling thread is a bound stage worker
     */
    public static boolean report(Object item, Throwable cause) {
        Binding b = BOUND.get();
        if (b == null) {
            return false;
        }
        b.failures.onFailure(b.worker, item, cause);
        return true;
    }

    private record Binding(StageFailures failures, WorkerStats worker) {
    }
}
