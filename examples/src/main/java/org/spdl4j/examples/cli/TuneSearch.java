package org.spdl4j.examples.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code tune}'s search, kept apart from how one configuration is run (a trial function returning images/s) so that
 * it can be checked with made-up rates and noise.
 *
 * <p>Decode threads first (1, 2, 3, 4, 8, ... up to the budget, and the budget), at the base's reads in flight; then
 * reads in flight (the budget, 4 x and 16 x it) with the decode winner. Each configuration is measured as the median
 * of {@value #TRIALS} trials, so that one trial slowed (or sped up) by something else on the machine does not decide;
 * a configuration met again (the read sweep's 4 x budget is the default the decode sweep ran at) reuses its
 * measurement. A level replaces the best only when its median beats the best's by {@link #MARGIN}: fewer threads win
 * a tie. Not thread-safe; one search at a time.
 */
final class TuneSearch {
    /** Trials per configuration; its measurement is their median. */
    static final int TRIALS = 3;
    /** How much faster (as a fraction) a level's median must be than the best's to replace it. */
    static final double MARGIN = 0.03;

    private final ToDoubleFunction<PipelineSettings> trial;
    private final Listener listener;
    private final Map<PipelineSettings, Measurement> measured = new HashMap<>();

    /** What the search tells as it goes (tune prints it). */
    @FunctionalInterface
    interface Listener {
        /**
         * A level was measured, or its earlier measurement reused.
         *
         * @param sweep       {@code decode threads} or {@code reads in flight}
         * @param level       the level
         * @param measurement its measurement
         */
        void measured(String sweep, int level, Measurement measurement);
    }

    /**
     * One configuration's measurement.
     *
     * @param imagesPerSecond the median of its trials
     * @param trials          each trial's images/s, in the order they ran
     * @param reused          whether this is an earlier measurement of the same configuration
     */
    record Measurement(double imagesPerSecond, double[] trials, boolean reused) {
    }

    /**
     * The search's outcome.
     *
     * @param best            the winning options
     * @param imagesPerSecond their measurement (median)
     */
    record Result(PipelineSettings best, double imagesPerSecond) {
    }

    private TuneSearch(ToDoubleFunction<PipelineSettings> trial, Listener listener) {
        this.trial = trial;
        this.listener = listener;
    }

    /**
     * Searches.
     *
     * @param budget   the most decode threads
     * @param base     the options to vary (their reads in flight are the decode sweep's)
     * @param trial    runs one trial of a configuration and returns its images/s
     * @param listener told of each level
     * @return the winner
     */
    static Result search(int budget, PipelineSettings base, ToDoubleFunction<PipelineSettings> trial,
                         Listener listener) {
        return new TuneSearch(trial, listener).run(budget, base);
    }

    /** {@return the decode sweep's levels: 1, 2, 3, 4, 8, 16, ... up to and including the budget} */
    static List<Integer> decodeLevels(int budget) {
        List<Integer> levels = new ArrayList<>();
        for (int d = 1; d <= budget; d = d < 4 ? d + 1 : d * 2) {
            levels.add(d);
        }
        if (!levels.contains(budget)) {
            levels.add(budget);
        }
        return levels;
    }

    private Result run(int budget, PipelineSettings base) {
        PipelineSettings best = null;
        double bestRate = 0;
        for (int d : decodeLevels(budget)) {
            PipelineSettings o = base.withDecodeConcurrency(d);
            double rate = measure("decode threads", d, o);
            if (best == null || rate > bestRate * (1 + MARGIN)) { // fewer threads unless more are clearly faster
                best = o;
                bestRate = rate;
            }
        }
        PipelineSettings decodeWinner = best;
        for (int r : new int[] {budget, 4 * budget, 16 * budget}) {
            PipelineSettings o = decodeWinner.withReadConcurrency(r);
            double rate = measure("reads in flight", r, o);
            if (rate > bestRate * (1 + MARGIN)) {
                best = o;
                bestRate = rate;
            }
        }
        return new Result(best, bestRate);
    }

    private double measure(String sweep, int level, PipelineSettings o) {
        Measurement known = measured.get(o);
        if (known != null) {
            Measurement again = new Measurement(known.imagesPerSecond(), known.trials(), true);
            listener.measured(sweep, level, again);
            return known.imagesPerSecond();
        }
        double[] rates = new double[TRIALS];
        for (int i = 0; i < TRIALS; i++) {
            rates[i] = trial.applyAsDouble(o);
        }
        Measurement m = new Measurement(median(rates), rates, false);
        measured.put(o, m);
        listener.measured(sweep, level, m);
        return m.imagesPerSecond();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
