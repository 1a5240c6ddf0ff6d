package org.spdl4j.engine.loader;

import java.io.Serial;
import java.time.Duration;
import java.util.List;
import org.spdl4j.engine.stats.StageStats;

/**
 * No batch came within the loader's timeout. The message names the stage that was busiest (the likely bottleneck or
 * a stuck task) with each stage's counts, so the cause can be found without a debugger.
 */
public final class DataLoaderTimeoutException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception from the stats at the time of the timeout.
     *
     * @param timeout the timeout that passed
     * @param stages  every stage's stats
     */
    public DataLoaderTimeoutException(Duration timeout, List<StageStats> stages) {
        super(describe(timeout, stages));
    }

    private static String describe(Duration timeout, List<StageStats> stages) {
        StringBuilder b = new StringBuilder("no batch within ").append(timeout.toMillis()).append(" ms");
        StageStats busiest = null;
        for (StageStats s : stages) {
            if (busiest == null || s.busyNanos() > busiest.busyNanos()) {
                busiest = s;
            }
        }
        if (busiest != null) {
            b.append("; busiest stage '").append(busiest.stage()).append("' (").append(busiest.workerCount())
                .append(" workers): raise its concurrency, or check its function for a stall");
        }
        b.append(". Stages (in/out/failed):");
        for (StageStats s : stages) {
            b.append(' ').append(s.stage()).append('=').append(s.itemsIn()).append('/').append(s.itemsOut()).append('/')
                .append(s.failures());
        }
        return b.toString();
    }
}
