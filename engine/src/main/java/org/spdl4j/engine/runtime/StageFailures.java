package org.spdl4j.engine.runtime;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.FailureListener;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * Counts a stage's failed tasks against its budget: each failure is counted in the worker's stats (the first one's
 * cause kept there: {@link StageStats#firstFailure()}), logged with the stage and the item, and the failure that
 * exceeds the budget fails the pipeline.
 *
 * <p><b>Threading:</b> any of the stage's workers; an {@link AtomicLong} counts (failure path only, not hot).
 */
public final class StageFailures {
    private static final Logger LOG = LoggerFactory.getLogger(StageFailures.class);
    private static final int MAX_ITEM_TEXT = 200;

    private final PipelineControl control;
    private final String stage;
    private final FailureBudget budget;
    private final StageStats stats;
    private final AtomicLong failures = new AtomicLong();
    private final FailureListener listener;

    /**
     * Creates the failure counter of a stage.
     *
     * @param control the pipeline's control, failed when the budget is exceeded
     * @param stage   the stage's name
     * @param budget  the failures tolerated
     * @param stats   the stage's stats (items taken, for fractional budgets)
     */
    public StageFailures(PipelineControl control, String stage, FailureBudget budget, StageStats stats) {
        this(control, stage, budget, stats, FailureListener.NONE);
    }

    /**
     * Creates the failure counter of a stage that tells each failure to a listener.
     *
     * @param control  the pipeline's control, failed when the budget is exceeded
     * @param stage    the stage's name
     * @param budget   the failures tolerated
     * @param stats    the stage's stats (items taken, for fractional budgets)
     * @param listener told of each failure counted
     */
    public StageFailures(PipelineControl control, String stage, FailureBudget budget, StageStats stats,
                         FailureListener listener) {
        this.listener = listener;
        this.control = control;
        this.stage = stage;
        this.budget = budget;
        this.stats = stats;
    }

    /**
     * Records a failed task. Ignored (not counted) once the pipeline stops: tasks interrupted by close are not failures.
     *
     * @param worker the failing worker's own stats
     * @param item   the item whose task failed
     * @param cause  what it threw (or a timeout)
     */
    public void onFailure(WorkerStats worker, Object item, Throwable cause) {
        if (!control.running().isRunning()) {
            return;
        }
        worker.onFailure();
        stats.recordFailure(cause);
        long n = failures.incrementAndGet();
        if (LOG.isWarnEnabled()) {
            LOG.warn("pipeline '{}', stage '{}': task failed on item {} (failure {}, budget {}): {}",
                    control.pipeline(), stage, describe(item), n, budget, cause.toString());
        }
        if (listener != FailureListener.NONE) {
            try {
                listener.failed(stage, item, cause);
            } catch (RuntimeException e) {
                LOG.warn("pipeline '{}', stage '{}': the failure listener threw on item {}: {}", control.pipeline(),
                        stage, describe(item), e.toString());
            }
        }
        if (budget.isExceeded(n, stats.itemsIn())) {
            control.fail(stage, n + " failed tasks exceed the stage's failure budget of " + budget
                    + "; the last failed on item " + describe(item)
                    + ". Fix the cause below or raise the budget (StageOptions.withFailureBudget)", cause);
        }
    }

    /**
     * {@return an item as messages name it: its text, cut to a few hundred characters (a {@code toString} that
     * throws is named instead)} Every message of the engine that names an item uses it.
     *
     * @param item the item
     */
    public static String describe(Object item) {
        String s;
        try {
            s = String.valueOf(item);
        } catch (RuntimeException e) {
            s = item.getClass().getName() + " (toString threw " + e + ")";
        }
        return s.length() <= MAX_ITEM_TEXT ? s : s.substring(0, MAX_ITEM_TEXT) + "...";
    }
}
