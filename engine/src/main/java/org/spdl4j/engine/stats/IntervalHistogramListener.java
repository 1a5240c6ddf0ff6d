package org.spdl4j.engine.stats;

import org.HdrHistogram.Histogram;

/**
 * Receives every interval task-time histogram of every stage, exactly once, as {@link PipelineStats} samples them
 * (for example the {@code .hlog} writer, {@link StageHistogramLogWriter}).
 *
 * <p><b>Threading:</b> called on the thread that samples (the reporter's, or whoever calls
 * {@link PipelineStats#snapshot()}), one call at a time, with the {@link PipelineStats} reader lock held: keep it
 * short and never call back into the same {@code PipelineStats}.
 *
 * <p><b>Ownership:</b> the histogram is lent for the duration of the call and reused for the next interval: read or
 * copy it, never keep it. Its tag is {@link StageStats#tag()} and its start/end timestamps (epoch milliseconds)
 * bound the interval.
 */
@FunctionalInterface
public interface IntervalHistogramListener {
    /**
     * One stage's interval.
     *
     * @param stage    the stage
     * @param interval the task times recorded by all its workers during the interval (lent, see above)
     */
    void onInterval(StageStats stage, Histogram interval);
}
