package org.spdl4j.engine.stats;

import java.time.Duration;

/**
 * The stats package's settings in one place: named constants, none of them a system property.
 *
 * <table class="striped">
 *   <caption>Settings</caption>
 *   <tr><th>constant</th><th>value</th><th>meaning</th></tr>
 *   <tr><td>{@link #SIGNIFICANT_DIGITS}</td><td>2</td>
 *       <td>HdrHistogram precision of task times (2 = 1%; each histogram ~37 KiB. 3 = 0.1%, ~270 KiB)</td></tr>
 *   <tr><td>{@link #REPORT_INTERVAL}</td><td>10 s</td>
 *       <td>period of {@link PipelineStatsReporter#start(PipelineStats)}; {@link PipelineStatsReporter#start(
 *       PipelineStats, Duration)} takes another</td></tr>
 *   <tr><td>{@link #BOTTLENECK_BUSY_PERCENT}</td><td>50</td>
 *       <td>a stage must be at least this busy to be called the bottleneck</td></tr>
 *   <tr><td>{@link #BOTTLENECK_STARVED_PERCENT}</td><td>25</td>
 *       <td>...and the stage after it at least this starved (or back-pressure at the sink: the consumer)</td></tr>
 *   <tr><td>{@link #TIMING_SAMPLE_PERIOD}</td><td>64</td>
 *       <td>short tasks are timed 1 in this many ({@link SampledTaskTimer})</td></tr>
 *   <tr><td>{@link #TIMING_SAMPLE_BELOW_NANOS}</td><td>2000</td>
 *       <td>a task is short when the last timed task took less than this; longer tasks are all timed</td></tr>
 *   <tr><td>{@link #TIMING_TINY_SAMPLE_PERIOD}</td><td>1024</td>
 *       <td>tiny tasks are timed 1 in this many</td></tr>
 *   <tr><td>{@link #TIMING_TINY_BELOW_NANOS}</td><td>200</td>
 *       <td>a short task is tiny when the last timed task took less than this</td></tr>
 * </table>
 *
 * <p><b>Threading:</b> constants only; immutable.
 */
public final class StatsConfiguration {
    /** Task times above this (one hour) are clamped in the histograms. */
    public static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;

    /** HdrHistogram significant digits of task-time histograms (2: 1% precision, about 37 KiB a histogram). */
    public static final int SIGNIFICANT_DIGITS = 2;

    /** Reporting period of {@link PipelineStatsReporter#start(PipelineStats)}: 10 s. */
    public static final Duration REPORT_INTERVAL = Duration.ofSeconds(10);

    /** Minimum busy percentage of a bottleneck. */
    public static final double BOTTLENECK_BUSY_PERCENT = 50;

    /**
     * Minimum starved percentage of the stage after a bottleneck. Also the back-pressure of a last stage that blames
     * the consumer.
     */
    public static final double BOTTLENECK_STARVED_PERCENT = 25;

    /**
     * Short tasks are timed one in this many (tiny ones: {@link #TIMING_TINY_SAMPLE_PERIOD}).
     * A clock read costs 25-50 ns on common VMs, which is more than a trivial task; see {@link SampledTaskTimer}.
     */
    public static final int TIMING_SAMPLE_PERIOD = 64;

    /**
     * A task counts as short when the last timed task of its worker took less than this many nanoseconds. Stages of
     * longer tasks time every task (the clock is then noise).
     */
    public static final long TIMING_SAMPLE_BELOW_NANOS = 2_000L;

    /**
     * Tiny tasks (see {@link #TIMING_TINY_BELOW_NANOS}) are timed one in this many. At one in
     * {@link #TIMING_SAMPLE_PERIOD} the two clock reads of a sample cost a task of 20 ns several percent of its time
     * on a VM whose clock read takes 50 ns; here they cost a fraction of a nanosecond per task, and a stage of ten
     * million tasks a second still gives ten thousand samples a second.
     */
    public static final int TIMING_TINY_SAMPLE_PERIOD = 1024;

    /** A short task counts as tiny when the last timed task of its worker took less than this many nanoseconds. */
    public static final long TIMING_TINY_BELOW_NANOS = 200L;

    private StatsConfiguration() {
    }
}
