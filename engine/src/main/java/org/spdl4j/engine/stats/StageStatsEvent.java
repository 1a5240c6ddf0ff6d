package org.spdl4j.engine.stats;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A JFR event per stage per snapshot ({@code org.spdl4j.StageStats}), so a JDK Flight Recording shows the pipeline's
 * stages beside GC, allocation and thread activity. Enable it with
 * {@code -XX:StartFlightRecording} (it is on by default in the {@code default} and {@code profile} settings, as every
 * custom event) and feed it by passing {@link #emit(PipelineSnapshot)} to a {@link PipelineStatsReporter}, or calling
 * it after each {@link PipelineStats#snapshot()}.
 *
 * <p><b>Threading:</b> {@link #emit(PipelineSnapshot)} from any thread. <b>Allocation:</b> nothing when the event is
 * disabled; one event object per stage otherwise.
 */
@Name("org.spdl4j.StageStats")
@Label("spdl4j Stage Stats")
@Category({"spdl4j", "Pipeline"})
@Description("Per-stage figures of an spdl4j pipeline at a snapshot; rates and shares over the interval since the "
        + "previous one")
@StackTrace(false)
public final class StageStatsEvent extends Event {
    private static final StageStatsEvent PROBE = new StageStatsEvent();

    @Label("Pipeline")
    String pipeline;
    @Label("Stage")
    String stage;
    @Label("Workers")
    int workers;
    @Label("Items In")
    long itemsIn;
    @Label("Items Out")
    long itemsOut;
    @Label("Failures")
    long failures;
    @Label("Tasks")
    long tasks;
    @Label("Task p50")
    @Timespan(Timespan.NANOSECONDS)
    long taskP50;
    @Label("Task p99")
    @Timespan(Timespan.NANOSECONDS)
    long taskP99;
    @Label("Task Max")
    @Timespan(Timespan.NANOSECONDS)
    long taskMax;
    @Label("Items Out per Second")
    double itemsOutPerSecond;
    @Label("Busy")
    @Percentage
    double busy;
    @Label("Starved")
    @Percentage
    double starved;
    @Label("Back-pressured")
    @Percentage
    double backPressured;
    @Label("Ring Occupancy")
    @DataAmount("items")
    long ringOccupancy;
    @Label("Bottleneck")
    boolean bottleneck;

    /** An empty event; {@link #emit(PipelineSnapshot)} fills them. */
    public StageStatsEvent() {
    }

    /**
     * Commits one event per stage of the snapshot when the event type is enabled. Percentages are fractions
     * (JFR's convention: 0.5 = 50%). The first call initialises this class and with it JFR (tens of milliseconds);
     * a caller on a start-up path checks {@link jdk.jfr.FlightRecorder#isInitialized()} first.
     *
     * @param snapshot the figures
     */
    public static void emit(PipelineSnapshot snapshot) {
        if (!PROBE.isEnabled()) {
            return;
        }
        for (StageSnapshot s : snapshot.stages()) {
            StageStatsEvent e = new StageStatsEvent();
            e.pipeline = snapshot.pipeline();
            e.stage = s.stage();
            e.workers = s.workers();
            e.itemsIn = s.itemsIn();
            e.itemsOut = s.itemsOut();
            e.failures = s.failures();
            e.tasks = s.tasks();
            e.taskP50 = s.p50Nanos();
            e.taskP99 = s.p99Nanos();
            e.taskMax = s.maxNanos();
            e.itemsOutPerSecond = s.itemsOutPerSecond();
            e.busy = s.busyPercent() / 100;
            e.starved = s.starvedPercent() / 100;
            e.backPressured = s.backPressuredPercent() / 100;
            e.ringOccupancy = s.ringOccupancy();
            e.bottleneck = s.bottleneck();
            e.commit();
        }
    }
}
