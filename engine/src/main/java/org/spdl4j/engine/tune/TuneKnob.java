package org.spdl4j.engine.tune;

import java.util.Objects;

/**
 * A stage the tuner may move: its name (built with {@link org.spdl4j.engine.StageOptions#withMaxConcurrency(int)})
 * and, for an async or virtual-thread stage, the bytes one task in flight holds (counted against the memory budget).
 *
 * @param stage        the stage's name
 * @param bytesPerUnit bytes one task in flight holds (async stages); ignored for sync stages, whose threads count
 *                     against the CPU budget
 */
public record TuneKnob(String stage, long bytesPerUnit) {
    /**
     * Checks the values.
     *
     * @param stage        the stage's name
     * @param bytesPerUnit at least 0
     */
    public TuneKnob {
        Objects.requireNonNull(stage, "stage");
        if (bytesPerUnit < 0) {
            throw new IllegalArgumentException("bytes per unit must not be negative: " + bytesPerUnit);
        }
    }
}
