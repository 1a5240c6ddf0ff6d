package org.spdl4j.engine.tune;

import java.util.Map;

/**
 * Told of each change a {@link ConcurrencyTuner} makes and of the configuration it settles on. Called on the tuner's
 * thread; keep it short.
 */
public interface TuneListener {
    /** A listener that does nothing. */
    TuneListener NONE = new TuneListener() { };

    /**
     * A stage's concurrency changed.
     *
     * @param line one line: the stage, old -> new, and why
     */
    default void changed(String line) {
    }

    /**
     * The tuner stopped moving (it may start again on a big change of throughput).
     *
     * @param concurrency   each tuned stage's concurrency, in the order the knobs were given
     * @param itemsPerSecond the throughput measured with it
     * @param sinceStartNanos time from the tuner's start to now
     */
    default void settled(Map<String, Integer> concurrency, double itemsPerSecond, long sinceStartNanos) {
    }
}
