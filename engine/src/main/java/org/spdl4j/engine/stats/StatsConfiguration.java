package org.spdl4j.engine.stats;

import java.time.Duration;
import org.spdl4j.offheap.SystemProperties;

/**
 * The stats package's settings in one place: named defaults, each overridable by a system property read once when
 * this class loads.
 *
 * <table class="striped">
 *   <caption>Settings</caption>
 *   <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code spdl4j.stats.significantDigits}</td><td>2</td>
 *       <td>HdrHistogram precision of task times (2 = 1%; each histogram ~37 KiB. 3 = 0.1%, ~270 KiB)</td></tr>
 *   <tr><td>{@code spdl4j.stats.reportIntervalMillis}</td><td>10000</td>
 *       <td>period of {@link PipelineStatsReporter} when none is given</td></tr>
 *   <tr><td>{@code spdl4j.stats.bottleneckBusyPercent}</td><td>50</td>
 *       <td>a stage must be at least this busy to be called the bottleneck</td></tr>
 *   <tr><td>{@code spdl4j.stats.bottleneckStarvedPercent}</td><td>25</td>
 *       <td>...and the stage after it at least this starved (or back-pressure at the sink: the consumer)</td></tr>
 *   <tr><td>{@code spdl4j.stats.timingSamplePeriod}</td><td>64</td>
 *       <td>short tasks are timed 1 in this many ({@link SampledTaskTimer}); 1 times every task</td></tr>
 *   <tr><td>{@code spdl4j.stats.timingSampleBelowNanos}</td><td>2000</td>
 *       <td>a task is short when the last timed task took less than this; longer tasks are all timed</td></tr>
 *   <tr><td>{@code spdl4j.stats.timingTinySamplePeriod}</td><td>1024</td>
 *       <td>tiny tasks are timed 1 in this many</td></tr>
 *   <tr><td>{@code spdl4j.stats.timingTinyBelowNanos}</td><td>200</td>
 *       <td>a short task is tiny when the last timed task took less than this (0: none is)</td></tr>
 * </table>
 *
 * <p>A property set to a value that does not parse or is out of range fails this class's initialisation with a
 * message naming it ({@link SystemProperties}), rather than leaving the default silently in effect (or, for the
 * precision, failing every pipeline's build in HdrHistogram with a message that names no property).
 *
 * <p><b>Threading:</b> constants only; immutable.
 */
public final class StatsConfiguration {
    /** Task times above this (one hour) are clamped in the histograms. */
    public static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;

    /** HdrHistogram significant digits of task-time histograms; property {@code spdl4j.stats.significantDigits}. */
    public static final int SIGNIFICANT_DIGITS =
            SystemProperties.intValue("spdl4j.stats.significantDigits", 2, 0, 5); // HdrHistogram's range

    /** Default reporting period; property {@code spdl4j.stats.reportIntervalMillis}. */
    public static final Duration REPORT_INTERVAL = Duration.ofMillis(
            SystemProperties.longValue("spdl4j.stats.reportIntervalMillis", 10_000L, 1, Long.MAX_VALUE));

    /** Minimum busy percentage of a bottleneck; property {@code spdl4j.stats.bottleneckBusyPercent}. */
    public static final double BOTTLENECK_BUSY_PERCENT = SystemProperties.doubleValue("spdl4j.stats.bottleneckBusyPercent", 50, 0, 100);

    /** Minimum starved percentage of the stage after a bottleneck; property
     * {@code spdl4j.stats.bottleneckStarvedPercent}. Also the back-pressure of a last stage that blames the consumer. */
    public static final double BOTTLENECK_STARVED_PERCENT =
            SystemProperties.doubleValue("spdl4j.stats.bottleneckStarvedPercent", 25, 0, 100);

    /**
     * Short tasks are timed one in this many (tiny ones: {@link #TIMING_TINY_SAMPLE_PERIOD}); property
     * {@code spdl4j.stats.timingSamplePeriod} (1 = time every task).
     * A clock read costs 25-50 ns on common VMs, which is more than a trivial task; see {@link SampledTaskTimer}.
     */
    public static final int TIMING_SAMPLE_PERIOD =
            SystemProperties.intValue("spdl4j.stats.timingSamplePeriod", 64, 1, Integer.MAX_VALUE);

    /**
     * A task counts as short when the last timed task of its worker took less than this many nanoseconds; property
     * {@code spdl4j.stats.timingSampleBelowNanos}. Stages of longer tasks time every task (the clock is then noise).
     */
    public static final long TIMING_SAMPLE_BELOW_NANOS =
            SystemProperties.longValue("spdl4j.stats.timingSampleBelowNanos", 2_000L, 0, Long.MAX_VALUE);

    /**
     * Tiny tasks (see {@link #TIMING_TINY_BELOW_NANOS}) are timed one in this many; property
     * {@code spdl4j.stats.timingTinySamplePeriod}. At one in {@link #TIMING_SAMPLE_PERIOD} the two clock reads of a
     * sample cost a task of 20 ns several percent of its time on a VM whose clock read takes 50 ns; here they cost
     * a fraction of a nanosecond per task, and a stage of ten million tasks a second still gives ten thousand samples
     * a second.
     */
    public static final int TIMING_TINY_SAMPLE_PERIOD =
            SystemProperties.intValue("spdl4j.stats.timingTinySamplePeriod", 1024, 1, Integer.MAX_VALUE);

    /**
     * A short task counts as tiny when the last timed task of its worker took less than this many nanoseconds;
     * property {@code spdl4j.stats.timingTinyBelowNanos} (0: no task is tiny).
     */
    public static final long TIMING_TINY_BELOW_NANOS =
            SystemProperties.longValue("spdl4j.stats.timingTinyBelowNanos", 200L, 0, Long.MAX_VALUE);

    private StatsConfiguration() {
    }
}
