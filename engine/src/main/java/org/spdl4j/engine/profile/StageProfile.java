package org.spdl4j.engine.profile;

import java.util.List;
import java.util.Optional;

/**
 * The result of profiling one stage alone.
 *
 * @param stage  the stage's name
 * @param points one per concurrency tried, in the order tried
 */
public record StageProfile(String stage, List<Point> points) {
    /**
     * Throughput at one concurrency.
     *
     * @param concurrency    workers (or tasks in flight)
     * @param itemsPerSecond items that came out of the stage per second in the steady state (see
     *                       {@link StageProfiler}); a failed item does not count, so a concurrency at which every
     *                       item failed has 0
     * @param failures       items whose function threw (or timed out), over the whole pass of the inputs
     */
    public record Point(int concurrency, double itemsPerSecond, long failures) {
    }

    /** Copies the points. */
    public StageProfile {
        points = List.copyOf(points);
    }

    /**
     * {@return the point with the highest throughput of items that came out; empty when no concurrency put an item
     * through (every item failed everywhere, or there were no points)} A point with failures can be the best when
     * it still put the most items through: check its {@link Point#failures()}.
     */
    public Optional<Point> best() {
        Point best = null;
        for (Point p : points) {
            if (p.itemsPerSecond() > 0 && (best == null || p.itemsPerSecond() > best.itemsPerSecond())) {
                best = p;
            }
        }
        return Optional.ofNullable(best);
    }
}
