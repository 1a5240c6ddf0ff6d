package org.spdl4j.engine.tune;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link ConcurrencyTuner} moves. Immutable; the {@code with*} methods return a changed copy.
 *
 * @param cpuBudget       the most threads the tuned sync stages may have working at once, together
 * @param memoryBudget    the most bytes the tuned async stages' tasks in flight may hold, together (each knob says
 *                        what one task holds: {@link TuneKnob#bytesPerUnit()})
 * @param tick            how often the tuner reads the stages' counters
 * @param windowTicks     ticks measured per figure (after one tick left to settle after each change)
 * @param minGain         a raise is kept only when it lifts throughput by more than this fraction; a cut only when it
 *                        costs no more than it
 * @param stableWindows   windows in a row without a kept change after which the tuner stops moving
 * @param reprobeChange   once settled, a change of throughput by more than this fraction starts the search again
 * @param trialRounds     rounds of a trial: the old and the new setting measured alternately, a window each (more
 *                        rounds judge a change more surely on a machine whose load moves)
 */
public record TunerSettings(int cpuBudget, long memoryBudget, Duration tick, int windowTicks, double minGain,
                            int stableWindows, double reprobeChange, int trialRounds) {
    /** Default tick: 250 ms. */
    public static final Duration DEFAULT_TICK = Duration.ofMillis(250);
    /** Default memory budget for tasks in flight: 256 MiB. */
    public static final long DEFAULT_MEMORY_BUDGET = 256L << 20;
    /** Default gain a raise must bring: 3%. */
    public static final double DEFAULT_MIN_GAIN = 0.03;

    /**
     * Checks the values.
     *
     * @param cpuBudget     threads, at least 1
     * @param memoryBudget  bytes, at least 1
     * @param tick          positive
     * @param windowTicks   at least 1
     * @param minGain       in [0, 1)
     * @param stableWindows at least 1
     * @param reprobeChange positive
     * @param trialRounds   at least 1
     * @throws IllegalArgumentException when one is out of range
     */
    public TunerSettings {
        Objects.requireNonNull(tick, "tick");
        if (cpuBudget < 1 || memoryBudget < 1 || tick.isNegative() || tick.isZero() || windowTicks < 1
                || minGain < 0 || minGain >= 1 || stableWindows < 1 || reprobeChange <= 0 || trialRounds < 1) {
            throw new IllegalArgumentException("tuner settings out of range: " + cpuBudget + " cpus, " + memoryBudget
                    + " bytes, tick " + tick + ", window " + windowTicks + ", gain " + minGain + ", stable "
                    + stableWindows + ", reprobe " + reprobeChange + ", trial rounds " + trialRounds);
        }
    }

    /**
     * {@return the defaults: the cores available as the CPU budget, 256 MiB, a 250 ms tick, 2-tick windows, 3% gain,
     * settled after 3 windows without a kept change, re-probed on a 25% change of throughput, trials of 2 rounds}
     */
    public static TunerSettings defaults() {
        return new TunerSettings(Runtime.getRuntime().availableProcessors(), DEFAULT_MEMORY_BUDGET, DEFAULT_TICK, 2,
                DEFAULT_MIN_GAIN, 3, 0.25, 2);
    }

    /**
     * {@return a copy with another CPU budget}
     *
     * @param threads the most threads of tuned sync stages working at once
     */
    public TunerSettings withCpuBudget(int threads) {
        return new TunerSettings(threads, memoryBudget, tick, windowTicks, minGain, stableWindows, reprobeChange, trialRounds);
    }

    /**
     * {@return a copy with another memory budget}
     *
     * @param bytes the most bytes tasks in flight may hold
     */
    public TunerSettings withMemoryBudget(long bytes) {
        return new TunerSettings(cpuBudget, bytes, tick, windowTicks, minGain, stableWindows, reprobeChange, trialRounds);
    }

    /**
     * {@return a copy with another tick}
     *
     * @param every how often the counters are read
     */
    public TunerSettings withTick(Duration every) {
        return new TunerSettings(cpuBudget, memoryBudget, every, windowTicks, minGain, stableWindows, reprobeChange, trialRounds);
    }

    /**
     * {@return a copy with another window}
     *
     * @param ticks ticks per measured figure
     */
    public TunerSettings withWindowTicks(int ticks) {
        return new TunerSettings(cpuBudget, memoryBudget, tick, ticks, minGain, stableWindows, reprobeChange,
                trialRounds);
    }

    /**
     * {@return a copy with another number of trial rounds}
     *
     * @param rounds rounds of old and new setting alternated per trial
     */
    public TunerSettings withTrialRounds(int rounds) {
        return new TunerSettings(cpuBudget, memoryBudget, tick, windowTicks, minGain, stableWindows, reprobeChange,
                rounds);
    }
}
