package org.spdl4j.engine.loader;

import java.io.Serial;
import java.time.Duration;
import java.util.List;
import org.spdl4j.engine.stats.StageStats;

/**
 * No batch came within the loader's timeout. The message names the stage that was busiest per task slot over the run
 * (the likely bottleneck) and gives every stage's items in, out and failed: a stage whose items in exceed its items
 * out and failures holds items now (a stuck task shows there, since busy time counts finished tasks only), so the
 * cause can be found without a debugger.
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
        // Busy time per task slot (a stage of 16 workers is not the bottleneck for being busy 16 times as long);
        // it counts finished tasks only, so a task stuck right now shows in the counts below (in > out + failed).
        StageStats busiest = null;
        double most = -1;
        for (StageStats s : stages) {
            double perSlot = (double) s.busyNanos() / Math.max(1, s.taskSlots());
            if (perSlot > most) {
                most = perSlot;
                busiest = s;
            }
        }
        if (busiest != null) {
            b.append("; busiest stage per task slot '").append(busiest.stage()).append("' (")
                .append(busiest.taskSlots()).append(" slots, ").append(Math.round(most / 1e6))
                .append(" ms busy each): raise its concurrency, or check its function for a stall");
        }
        b.append(". Stages (in/out/failed):");
        for (StageStats s : stages) {
            b.append(' ').append(s.stage()).append('=').append(s.itemsIn()).append('/').append(s.itemsOut()).append('/')
                .append(s.failures());
        }
        return b.toString();
    }
}
