package org.spdl4j.examples.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's time series of one run: images counted so far and each ring's occupancy, sampled every
 * {@value #FIRST_STEP_MS} ms at first, so that a half-second run has a curve of about ten points. The samples are
 * bounded: when there are more than {@value #MAX_SAMPLES}, every other one is dropped and the step doubles, so a
 * one-minute run is sampled every 100 ms and an hour's run every few seconds, never more than
 * {@value #MAX_SAMPLES} points. Counts are cumulative, so dropping a sample loses no image: the rate between two
 * kept samples is the rate over both steps.
 *
 * <p>Kept apart from the clock and the thread so that it can be tested with made-up readings. Used by one thread.
 */
final class RunTimeline {
    /** The first sampling step, ms. */
    static final long FIRST_STEP_MS = 50;
    /** The most samples kept (the start's included). */
    static final int MAX_SAMPLES = 1024;

    private record Sample(long nanos, long images, double[] ringPercent) {
    }

    private final List<String> rings;
    private final List<Sample> samples = new ArrayList<>();
    private long stepNanos = FIRST_STEP_MS * 1_000_000;

    /**
     * Starts the series.
     *
     * @param startNanos when counting started (zero images then)
     * @param rings      the names of the stages whose input ring is sampled, in order
     */
    RunTimeline(long startNanos, List<String> rings) {
        this.rings = List.copyOf(rings);
        samples.add(new Sample(startNanos, 0, new double[rings.size()]));
    }

    /** {@return the current step between samples, ns} */
    long stepNanos() {
        return stepNanos;
    }

    /** {@return when the next sample is due} */
    long nextSampleNanos() {
        return samples.getLast().nanos() + stepNanos;
    }

    /** {@return the samples kept, the start's included} */
    int size() {
        return samples.size();
    }

    /**
     * Adds a sample; past {@value #MAX_SAMPLES}, drops every other one and doubles the step.
     *
     * @param nanos       the clock reading
     * @param images      images counted so far
     * @param ringPercent each ring's occupancy in percent, in the order of the constructor's names
     */
    void sample(long nanos, long images, double[] ringPercent) {
        samples.add(new Sample(nanos, images, ringPercent.clone()));
        if (samples.size() > MAX_SAMPLES) {
            List<Sample> kept = new ArrayList<>(MAX_SAMPLES / 2 + 1);
            for (int i = 0; i < samples.size(); i += 2) {
                kept.add(samples.get(i)); // the start (index 0) is always kept
            }
            samples.clear();
            samples.addAll(kept);
            stepNanos *= 2;
        }
    }

    /**
     * Adds the run's last sample. When the sample before it is less than a quarter step older (a rate over so short
     * a time is noise), that one is replaced rather than kept beside it.
     *
     * @param nanos       the clock reading
     * @param images      images counted at the end
     * @param ringPercent each ring's occupancy in percent
     */
    void last(long nanos, long images, double[] ringPercent) {
        if (samples.size() > 1 && nanos - samples.getLast().nanos() < stepNanos / 4) {
            samples.removeLast();
        }
        sample(nanos, images, ringPercent);
    }

    /** {@return (seconds since the start, images/s since the sample before) per sample after the start} */
    List<double[]> throughput() {
        List<double[]> points = new ArrayList<>(samples.size());
        for (int i = 1; i < samples.size(); i++) {
            Sample a = samples.get(i - 1);
            Sample b = samples.get(i);
            double seconds = (b.nanos() - a.nanos()) / 1e9;
            points.add(new double[] {seconds(b), seconds > 0 ? (b.images() - a.images()) / seconds : 0});
        }
        return points;
    }

    /** {@return each ring's (seconds since the start, occupancy percent) per sample, the start's included} */
    Map<String, List<double[]>> ringOccupancy() {
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (int r = 0; r < rings.size(); r++) {
            List<double[]> points = new ArrayList<>(samples.size());
            for (Sample s : samples) {
                points.add(new double[] {seconds(s), s.ringPercent()[r]});
            }
            series.put(rings.get(r), points);
        }
        return series;
    }

    private double seconds(Sample s) {
        return (s.nanos() - samples.getFirst().nanos()) / 1e9;
    }
}
