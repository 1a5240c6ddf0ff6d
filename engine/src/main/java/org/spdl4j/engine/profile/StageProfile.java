package org.spdl4j.engine.profile;

import java.util.List;

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
     * @param itemsPerSecond items through the stage per second
     * @param failures       items whose function threw
     */
    public record Point(int concurrency, double itemsPerSecond, long failures) {
    }

    /** Copies the points. */
    public StageProfile {
        points = List.copyOf(points);
    }

    /** {@return the point with the highest throughput} */
    public Point best() {
        Point best = points.get(0);
        for (Point p : points) {
            if (p.itemsPerSecond() > best.itemsPerSecond()) {
                best = p;
            }
        }
        return best;
    }
}
