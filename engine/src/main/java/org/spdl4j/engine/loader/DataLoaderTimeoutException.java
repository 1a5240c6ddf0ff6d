package org.spdl4j.engine.loader;

import java.io.Serial;
import java.time.Duration;
import java.util.List;
import org.spdl4j.engine.runtime.StageFailures;
import org.spdl4j.engine.stats.StageStats;

/**
 * No batch came within the loader's timeout. The message names where the loader is stuck: the task that has been
 * running longest right now (its stage, worker, item and how long it has run; sync preprocess and collate stages,
 * whose tasks are timed), else the stage that was busiest per task slot over the run (the likely bottleneck), and
 * gives every stage's items in, out and failed: a stage whose items in exceed its items out and failures holds items
 * now, so the cause can be found without a debugger.
 */
public final class DataLoaderTimeoutException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;
    /** The stage named as stuck, or null. */
    private final String stuckStage;

    /**
     * Creates the exception from the stats at the time of the timeout.
     *
     * @param timeout the timeout that passed
     * @param stages  every stage's stats
     */
    public DataLoaderTimeoutException(Duration timeout, List<StageStats> stages) {
        this(timeout, stages, longestRunning(stages, System.nanoTime()));
    }

    private DataLoaderTimeoutException(Duration timeout, List<StageStats> stages, StageStats.RunningTask running) {
        super(describe(timeout, stages, running));
        this.stuckStage = running != null ? running.stage() : busiest(stages) == null ? null
            : busiest(stages).stage();
    }

    /** {@return the stage the message names as stuck (a task running long, or the busiest), or {@code null}} */
    public String stuckStage() {
        return stuckStage;
    }

    private static StageStats.RunningTask longestRunning(List<StageStats> stages, long now) {
        StageStats.RunningTask longest = null;
        for (StageStats s : stages) {
            StageStats.RunningTask t = s.longestRunningTask(now);
            if (t != null && (longest == null || t.runningNanos() > longest.runningNanos())) {
                longest = t;
            }
        }
        return longest;
    }

    /** The stage busiest per task slot, or null when no stage has been busy at all. */
    private static StageStats busiest(List<StageStats> stages) {
        // Busy time per task slot (a stage of 16 workers is not the bottleneck for being busy 16 times as long).
        StageStats busiest = null;
        double most = 0;
        for (StageStats s : stages) {
            double perSlot = (double) s.busyNanos() / Math.max(1, s.taskSlots());
            if (perSlot > most) {
                most = perSlot;
                busiest = s;
            }
        }
        return busiest;
    }

    private static String describe(Duration timeout, List<StageStats> stages, StageStats.RunningTask running) {
        StringBuilder b = new StringBuilder("no batch within ").append(timeout.toMillis()).append(" ms");
        if (running != null) {
            b.append("; stage '").append(running.stage()).append("' is stuck: worker ").append(running.worker())
                .append(" has run its task on item ").append(StageFailures.describe(running.item())).append(" for ")
                .append(running.runningNanos() / 1_000_000).append(" ms. Check that stage's function for a wait"
                    + " without a bound (a lock, I/O, a call that ignores interrupts), or give the stage a task"
                    + " timeout (DataLoaderBuilder.taskTimeout)");
        } else {
            StageStats busiest = busiest(stages);
            if (busiest != null) {
                b.append("; busiest stage per task slot '").append(busiest.stage()).append("' (")
                    .append(busiest.taskSlots()).append(" slots, ")
                    .append(Math.round((double) busiest.busyNanos() / Math.max(1, busiest.taskSlots()) / 1e6))
                    .append(" ms busy each): raise its concurrency, or check its function for a stall");
            }
        }
        b.append(". Stages (in/out/failed):");
        for (StageStats s : stages) {
            b.append(' ').append(s.stage()).append('=').append(s.itemsIn()).append('/').append(s.itemsOut()).append('/')
                .append(s.failures());
        }
        return b.toString();
    }
}
