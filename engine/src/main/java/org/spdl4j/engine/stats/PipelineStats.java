package org.spdl4j.engine.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The statistics of one pipeline: its {@link StageStats} in pipeline order, and the one reader that samples them.
 *
 * <p>Sampling ({@link #sample()}, {@link #snapshot()}) swaps every worker's interval histogram, hands each stage's
 * interval to the registered {@link IntervalHistogramListener}s (the {@code .hlog} writer) and adds it to the stage's
 * accumulated histogram. Whoever samples, every interval reaches every listener once and the accumulation once:
 * nothing is lost or counted twice.
 *
 * <p><b>One per pipeline:</b> sampling takes the workers' interval histograms, so a second {@code PipelineStats} on
 * the same stages would take intervals away from the first (its task counts, percentiles and {@code .hlog} would
 * miss them). Create one when the pipeline starts and share it (reporter, {@code .hlog} writer, final table); a second
 * one on a stage that a live one reads is refused with {@link IllegalStateException} until the first is
 * {@link #detach() detached}.
 *
 * <p><b>Threading:</b> the runtime builds it from its stages; workers keep writing their {@link WorkerStats} and never
 * touch this object. Readers (a reporter thread, the CLI, tests) may call any method from any thread: sampling is
 * serialised by this object's monitor, which only readers take.
 *
 * <p><b>Allocation:</b> {@link #sample()} allocates nothing after its first call (interval histograms are recycled,
 * per-stage histograms preallocated); {@link #snapshot()} adds the small immutable snapshot records.
 * Memory: two task histograms per stage (~37 KiB each at the default precision).
 */
public final class PipelineStats {
    private static final Logger LOG = LoggerFactory.getLogger(PipelineStats.class);
    private final String name;
    private final List<StageStats> stages;
    private final LongSupplier nanoClock;

    // Reader-side state, guarded by this object's monitor.
    /** Copied on change; a plain array so the sampling loop allocates no iterator. */
    private IntervalHistogramListener[] listeners = new IntervalHistogramListener[0];
    private final Histogram[] interval;
    private final Histogram[] accumulated;
    // Counter baselines: the interval's (last*) and the run's (start*). Counters are cumulative from when the workers
    // started; a rate or share covers only the time since this object's start, so both start at the counters' values
    // then (work done before is not charged to a clock that was not running).
    private final long[] lastOut;
    private final long[] lastBusy;
    private final long[] lastStarved;
    private final long[] lastBackPressured;
    private final long[] startOut;
    private final long[] startBusy;
    private final long[] startStarved;
    private final long[] startBackPressured;
    private long startNanos;
    private long startEpochMillis;
    /** End of the last histogram interval (any sample). */
    private long lastSampleNanos;
    /** End of the last snapshot: the window of rates and time shares. */
    private long lastSnapshotNanos;
    /** Whether {@link #detach()} gave the stages up. */
    private boolean detached;

    /**
     * Stats of a pipeline measured with {@link System#nanoTime()}; the clock starts now (see {@link #markStarted()}):
     * rates and time shares cover what the stages do from now on, not what they did before this object existed.
     * Only one {@code PipelineStats} may read a stage at a time (see the class documentation).
     *
     * @param name   the pipeline's name, the first part of every metric name
     * @param stages the stages in pipeline order (source first); each must belong to pipeline {@code name}, names unique
     * @throws IllegalArgumentException when a stage belongs to another pipeline or two stages share a name (or a
     *                                  {@link StageStats#tag() tag})
     * @throws IllegalStateException    when another {@code PipelineStats} reads one of the stages and was not
     *                                  {@link #detach() detached}
     */
    public PipelineStats(String name, List<StageStats> stages) {
        this(name, stages, System::nanoTime);
    }

    /**
     * Stats of a pipeline measured with the given clock (tests use a manual one).
     *
     * @param name      the pipeline's name
     * @param stages    the stages in pipeline order (source first)
     * @param nanoClock a monotonic clock in nanoseconds, read by readers only; waits in progress are counted up to
     *                  its reading (see {@link WorkerStats}), so with running workers it must read
     *                  {@link System#nanoTime()}'s timeline (a test's manual clock suits stats written by hand)
     * @throws IllegalArgumentException when a stage belongs to another pipeline or two stages share a name (or a
     *                                  {@link StageStats#tag() tag})
     * @throws IllegalStateException    when another {@code PipelineStats} reads one of the stages
     */
    public PipelineStats(String name, List<StageStats> stages, LongSupplier nanoClock) {
        this.name = name;
        this.stages = List.copyOf(stages);
        this.nanoClock = nanoClock;
        Set<String> seen = new HashSet<>();
        Map<String, String> tags = new HashMap<>();
        for (StageStats s : this.stages) {
            if (!s.pipeline().equals(name)) {
                throw new IllegalArgumentException("stage '" + s.stage() + "' belongs to pipeline '" + s.pipeline()
                        + "', not '" + name + "': create its StageStats with the pipeline's name");
            }
            if (!seen.add(s.stage())) {
                throw new IllegalArgumentException("pipeline '" + name + "' has two stages named '" + s.stage()
                        + "': stage names must be unique (they name metrics and .hlog tags)");
            }
            // Distinct names may still make one tag (whitespace and commas become '_'): their .hlog intervals would
            // be read back as one stage's.
            String other = tags.putIfAbsent(s.tag(), s.stage());
            if (other != null) {
                throw new IllegalArgumentException("pipeline '" + name + "': stages '" + other + "' and '" + s.stage()
                        + "' would share the .hlog tag '" + s.tag() + "' (whitespace and commas become '_'); rename"
                        + " one of them");
            }
        }
        int attached = 0;
        try {
            for (StageStats s : this.stages) {
                s.attach(this);
                attached++;
            }
        } catch (IllegalStateException e) {
            for (int i = 0; i < attached; i++) {
                this.stages.get(i).detach(this);
            }
            throw e;
        }
        int n = this.stages.size();
        interval = new Histogram[n];
        accumulated = new Histogram[n];
        for (int i = 0; i < n; i++) {
            interval[i] = StageStats.newTaskHistogram();
            accumulated[i] = StageStats.newTaskHistogram();
        }
        lastOut = new long[n];
        lastBusy = new long[n];
        lastStarved = new long[n];
        lastBackPressured = new long[n];
        startOut = new long[n];
        startBusy = new long[n];
        startStarved = new long[n];
        startBackPressured = new long[n];
        long now = nanoClock.getAsLong();
        startEpochMillis = System.currentTimeMillis();
        restart(now);
    }

    /**
     * Stats of a running pipeline from its stages, named after them (as {@code new PipelineStats(name, stages)}):
     * {@code PipelineStats.of(pipeline.stats())}. Call it once per pipeline and share the result: a second call on
     * the same stages is refused while the first one is not {@link #detach() detached}.
     *
     * @param stages the stages in pipeline order, all of one pipeline
     * @return the pipeline's stats; its clock starts now
     * @throws IllegalArgumentException when there is no stage, or they belong to different pipelines
     * @throws IllegalStateException    when another {@code PipelineStats} reads one of the stages
     */
    public static PipelineStats of(List<StageStats> stages) {
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("a pipeline's stats need at least one stage");
        }
        return new PipelineStats(stages.get(0).pipeline(), stages);
    }

    /** {@return the pipeline's name} */
    public String name() {
        return name;
    }

    /** {@return the stages in pipeline order, unmodifiable} */
    public List<StageStats> stages() {
        return stages;
    }

    /**
     * Restarts the wall clock and the first interval now (for a runtime that builds its stats before it starts, or
     * after a warm-up): rates, time shares and throughput, of the next {@link #snapshot()} and of every
     * {@link #runSnapshot()}, cover only what the stages do from now on. Cumulative counts and histograms are kept.
     *
     * <p>The interval in progress ends here first (a {@link #sample()}, unless {@link #detach() detached}): the tasks
     * timed before the start reach the listeners (the {@code .hlog}) in an interval that ends at the start, not in the
     * first one after it. The new start's epoch time continues the timeline of the intervals before, so they never
     * overlap.
     */
    public synchronized void markStarted() {
        long now = detached ? nanoClock.getAsLong() : sample();
        startEpochMillis = epochMillis(now); // before restart: on the old start's timeline
        restart(now);
    }

    /** Makes {@code now} the start: of the wall clock, of the next interval and snapshot, and of every baseline. */
    private void restart(long now) {
        startNanos = now;
        lastSampleNanos = now;
        lastSnapshotNanos = now;
        for (int i = 0; i < stages.size(); i++) {
            StageStats s = stages.get(i);
            startOut[i] = lastOut[i] = s.itemsOut();
            startBusy[i] = lastBusy[i] = s.busyNanos();
            startStarved[i] = lastStarved[i] = s.starvedNanos(now);
            startBackPressured[i] = lastBackPressured[i] = s.backPressuredNanos(now);
        }
    }

    /**
     * Stops reading the stages, so that another {@code PipelineStats} may read them; idempotent. Afterwards
     * {@link #sample()}, {@link #snapshot()} and {@link #runSnapshot()} throw {@link IllegalStateException} (they
     * would take intervals from the new reader): close this object's reporter and {@code .hlog} writer first (their
     * last report, the log's tail interval, needs a sample). Its accumulated histograms stay
     * readable.
     */
    public synchronized void detach() {
        if (detached) {
            return;
        }
        detached = true;
        for (StageStats s : stages) {
            s.detach(this);
        }
    }

    /** {@return when the pipeline started, in milliseconds since the epoch (the {@code .hlog} base time)} */
    public synchronized long startEpochMillis() {
        return startEpochMillis;
    }

    /**
     * Registers a listener for every interval sampled from now on.
     *
     * @param listener the listener (see its threading and ownership rules)
     */
    public synchronized void addListener(IntervalHistogramListener listener) {
        listeners = Arrays.copyOf(listeners, listeners.length + 1);
        listeners[listeners.length - 1] = listener;
    }

    /**
     * Unregisters a listener; after this returns it is not called again.
     *
     * @param listener the listener
     */
    public synchronized void removeListener(IntervalHistogramListener listener) {
        // Synchronized: waits for a sample in progress, so the listener is not called after we return.
        IntervalHistogramListener[] kept = new IntervalHistogramListener[listeners.length];
        int n = 0;
        for (IntervalHistogramListener l : listeners) {
            if (l != listener) {
                kept[n++] = l;
            }
        }
        listeners = Arrays.copyOf(kept, n);
    }

    /**
     * Ends the current interval: takes every stage's interval histogram, passes it to the listeners and adds it to
     * the stage's accumulation. Allocates nothing after the first call.
     *
     * @return the clock reading that ended the interval
     * @throws IllegalStateException after {@link #detach()}
     */
    public synchronized long sample() {
        if (detached) {
            throw new IllegalStateException("the stats of pipeline '" + name + "' were detached from its stages");
        }
        long now = nanoClock.getAsLong();
        long from = epochMillis(lastSampleNanos);
        long to = epochMillis(now);
        for (int i = 0; i < interval.length; i++) {
            Histogram h = interval[i];
            h.reset(); // also clears the tag
            stages.get(i).addIntervalTaskHistogram(h);
            h.setTag(stages.get(i).tag());
            h.setStartTimeStamp(from);
            h.setEndTimeStamp(to);
            accumulated[i].add(h); // first: a listener that throws must not lose the interval from the totals
            for (IntervalHistogramListener l : listeners) {
                try {
                    l.onInterval(stages.get(i), h);
                } catch (RuntimeException e) {
                    LOG.warn("pipeline '{}': an interval listener failed on stage '{}'; the others still run",
                            name, stages.get(i).stage(), e);
                }
            }
        }
        lastSampleNanos = now;
        return now;
    }

    /**
     * Samples (see {@link #sample()}) and returns the figures: cumulative counts and percentiles, rates and time
     * shares over the interval since the previous snapshot, the bottleneck mark.
     *
     * @return a new immutable snapshot
     * @throws IllegalStateException after {@link #detach()}
     */
    public synchronized PipelineSnapshot snapshot() {
        return snapshot(false);
    }

    /**
     * Like {@link #snapshot()}, but every share and rate is over the whole run since the start rather than the last
     * interval, and the interval state is left as it was: the figures for an end-of-run summary.
     *
     * @return a new immutable snapshot whose interval is the whole run
     * @throws IllegalStateException after {@link #detach()}
     */
    public synchronized PipelineSnapshot runSnapshot() {
        return snapshot(true);
    }

    private PipelineSnapshot snapshot(boolean wholeRun) {
        long now = sample();
        long intervalNanos = now - (wholeRun ? startNanos : lastSnapshotNanos);
        int n = stages.size();
        double[] busy = new double[n];
        double[] starved = new double[n];
        double[] backPressured = new double[n];
        long[] in = new long[n];
        long[] out = new long[n];
        long[] failed = new long[n];
        long[] occupancy = new long[n];
        // Every counter in one pass, before the slow part (percentiles), and downstream first: items move on while
        // we read, so a stage read after the one feeding it could show more items taken than were published to it
        // (by all that moved meanwhile). Read downstream first, it shows at most the item each upstream worker may
        // hold between its publish and its count. Within a stage, out and failures go before in, for the same reason.
        for (int i = n - 1; i >= 0; i--) {
            StageStats s = stages.get(i);
            out[i] = s.itemsOut();
            failed[i] = s.failures();
            in[i] = s.itemsIn();
            occupancy[i] = s.inputOccupancy();
            long b = s.busyNanos();
            long st = s.starvedNanos(now); // waits in progress up to the interval's end
            long bp = s.backPressuredNanos(now);
            busy[i] = share(b - (wholeRun ? startBusy[i] : lastBusy[i]), intervalNanos, s.taskSlots());
            starved[i] = share(st - (wholeRun ? startStarved[i] : lastStarved[i]), intervalNanos, s.taskSlots());
            backPressured[i] = share(bp - (wholeRun ? startBackPressured[i] : lastBackPressured[i]), intervalNanos,
                    s.taskSlots());
            if (!wholeRun) {
                lastBusy[i] = b;
                lastStarved[i] = st;
                lastBackPressured[i] = bp;
            }
        }
        int bottleneck = BottleneckHeuristic.find(busy, starved, backPressured,
                StatsConfiguration.BOTTLENECK_BUSY_PERCENT, StatsConfiguration.BOTTLENECK_STARVED_PERCENT);
        List<StageSnapshot> result = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            StageStats s = stages.get(i);
            Histogram h = accumulated[i];
            boolean any = h.getTotalCount() > 0;
            double rate = intervalNanos > 0
                    ? (out[i] - (wholeRun ? startOut[i] : lastOut[i])) * 1e9 / intervalNanos : 0;
            if (!wholeRun) {
                lastOut[i] = out[i];
            }
            result.add(new StageSnapshot(s.stage(), s.taskSlots(), in[i], out[i], failed[i],
                    h.getTotalCount(),
                    any ? h.getValueAtPercentile(50) : 0, any ? h.getValueAtPercentile(90) : 0,
                    any ? h.getValueAtPercentile(99) : 0, any ? h.getMaxValue() : 0,
                    rate, busy[i], starved[i], backPressured[i], occupancy[i], s.inputCapacity(),
                    i == bottleneck));
        }
        long wall = now - startNanos;
        double throughput = n == 0 || wall <= 0 ? 0 : (out[n - 1] - startOut[n - 1]) * 1e9 / wall;
        if (!wholeRun) {
            lastSnapshotNanos = now;
        }
        return new PipelineSnapshot(name, epochMillis(now), wall, intervalNanos, throughput, result,
                bottleneck == BottleneckHeuristic.CONSUMER);
    }

    /**
     * Copies a stage's accumulated task-time histogram (everything sampled so far), for reports that need more than
     * the snapshot's percentiles. Allocates the copy.
     *
     * @param stage the stage's name
     * @return a copy the caller owns
     * @throws NoSuchElementException when there is no such stage
     */
    public synchronized Histogram copyAccumulatedTaskHistogram(String stage) {
        for (int i = 0; i < stages.size(); i++) {
            if (stages.get(i).stage().equals(stage)) {
                return accumulated[i].copy();
            }
        }
        throw new NoSuchElementException("pipeline '" + name + "' has no stage '" + stage + "'");
    }

    private long epochMillis(long nanos) {
        return startEpochMillis + Math.floorDiv(nanos - startNanos, 1_000_000L);
    }

    private static double share(long nanos, long intervalNanos, int workers) {
        return intervalNanos <= 0 ? 0 : 100.0 * nanos / ((double) intervalNanos * workers);
    }
}
