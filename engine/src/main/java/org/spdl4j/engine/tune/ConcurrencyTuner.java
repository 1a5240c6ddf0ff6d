package org.spdl4j.engine.tune;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.StageConcurrency;
import org.spdl4j.engine.stats.StageStats;

/**
 * Moves the concurrency of a running pipeline's tuned stages from their live counters: a daemon thread
 * ({@code spdl4j-<pipeline>-tuner}) that measures a window of ticks, proposes one change, measures again and keeps
 * the change only when it pays (hill climbing with hysteresis).
 *
 * <p><b>Proposals</b>, from the last window: a stage at least 75% busy whose output is not back-pressured (it limits
 * the run) gets one more thread (sync) or half as many more tasks in flight (async), within the CPU budget (the tuned
 * sync stages' threads together) and the memory budget (tasks in flight times their bytes); a stage under 40% busy
 * gives back a thread or a third of its tasks. <b>Hysteresis:</b> a raise is kept only if throughput rose by more
 * than {@link TunerSettings#minGain()}, a cut only if it fell by no more than that; otherwise it is reverted and not
 * tried again until a re-probe. After {@link TunerSettings#stableWindows()} windows without a kept change the tuner
 * settles (tells its listener) and only watches; a change of throughput by more than
 * {@link TunerSettings#reprobeChange()} starts the search again. Every change is one log line (and one
 * {@link TuneListener#changed} call): the stage, old -> new, and why, e.g.
 * {@code decode 1 -> 2 threads: decode 97% busy, assign->decode ring 0% full, sink starved 58%: +1 thread}.
 *
 * <p><b>Threading:</b> {@link #start()} and {@link #close()} from any thread; the figures are read on the tuner's
 * thread. The stages' hot paths pay one opaque load per claim for the limit it moves (see
 * {@link StageConcurrency}).
 */
public final class ConcurrencyTuner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConcurrencyTuner.class);
    private static final double BUSY_RAISE = 0.75;
    private static final double BUSY_CUT = 0.40;
    private static final double BACK_PRESSURED = 0.25;

    private final Pipeline<?> pipeline;
    private final TunerSettings settings;
    private final TuneListener listener;
    private final List<StageStats> stages;
    private final StageConcurrency[] knobs;
    private final long[] bytesPerUnit;
    private final int[] stageOf; // knob -> index into stages
    private final TuneFigures window;
    private final int[] units;
    private final List<String> changes = Collections.synchronizedList(new ArrayList<>());
    private final boolean[] raiseTried;
    private final boolean[] cutTried;
    private volatile boolean running = true;
    private volatile int peakThreads;
    private volatile long settledAfterNanos = -1;
    private volatile double settledRate;
    private Thread thread;
    private long startNanos;

    /**
     * Creates a tuner; {@link #start()} starts it.
     *
     * @param pipeline      the pipeline, whose tuned stages were built with a max concurrency
     * @param knobs         the stages to move
     * @param progressStage the stage whose items in count the throughput (e.g. the decode stage: images)
     * @param settings      budgets and timing
     * @param listener      told of every change and of the settled configuration
     * @throws IllegalArgumentException if a stage is unknown or not adjustable
     */
    public ConcurrencyTuner(Pipeline<?> pipeline, List<TuneKnob> knobs, String progressStage, TunerSettings settings,
                            TuneListener listener) {
        this.pipeline = pipeline;
        this.settings = settings;
        this.listener = listener;
        this.stages = pipeline.stats();
        this.knobs = new StageConcurrency[knobs.size()];
        this.bytesPerUnit = new long[knobs.size()];
        this.stageOf = new int[knobs.size()];
        for (int k = 0; k < knobs.size(); k++) {
            this.knobs[k] = pipeline.concurrency(knobs.get(k).stage());
            this.bytesPerUnit[k] = knobs.get(k).bytesPerUnit();
            this.stageOf[k] = indexOf(knobs.get(k).stage());
        }
        this.window = new TuneFigures(stages, indexOf(progressStage));
        this.units = new int[stages.size()];
        this.raiseTried = new boolean[knobs.size()];
        this.cutTried = new boolean[knobs.size()];
        fitBudgets();
    }

    private int indexOf(String stage) {
        for (int i = 0; i < stages.size(); i++) {
            if (stages.get(i).stage().equals(stage)) {
                return i;
            }
        }
        throw new IllegalArgumentException("pipeline '" + pipeline.spec().name() + "' has no stage '" + stage + "'");
    }

    /** Starts the tuner's daemon thread; once. */
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        startNanos = System.nanoTime();
        thread = Thread.ofPlatform().daemon(true).name("spdl4j-" + pipeline.spec().name() + "-tuner")
                .start(this::loop);
    }

    /** Stops the tuner and waits for its thread (at most a tick); the stages keep their concurrency. */
    @Override
    public void close() {
        running = false;
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null && t != Thread.currentThread()) {
            LockSupport.unpark(t);
            try {
                t.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@return each tuned stage's concurrency now, in the order the knobs were given} */
    public Map<String, Integer> concurrency() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (StageConcurrency c : knobs) {
            m.put(c.stage(), c.get());
        }
        return m;
    }

    /** {@return every change made so far, one line each} */
    public List<String> changes() {
        synchronized (changes) {
            return List.copyOf(changes);
        }
    }

    /** {@return the most threads the tuned sync stages were ever allowed at once (never above the CPU budget)} */
    public int peakThreads() {
        return peakThreads;
    }

    /** {@return nanoseconds from start to the first time the tuner settled, or -1 while it has not} */
    public long settledAfterNanos() {
        return settledAfterNanos;
    }

    /** {@return the throughput measured when the tuner last settled, items per second (0 before)} */
    public double settledRate() {
        return settledRate;
    }

    private int threads() {
        int n = 0;
        for (StageConcurrency c : knobs) {
            n += c.isThreads() ? c.get() : 0;
        }
        return n;
    }

    private long bytes() {
        long n = 0;
        for (int k = 0; k < knobs.length; k++) {
            n += knobs[k].isThreads() ? 0 : knobs[k].get() * bytesPerUnit[k];
        }
        return n;
    }

    /** A start over a budget is cut down to it first, each cut logged. */
    private void fitBudgets() {
        for (int k = knobs.length - 1; k >= 0 && threads() > settings.cpuBudget(); k--) {
            if (knobs[k].isThreads()) {
                int over = threads() - settings.cpuBudget();
                apply(k, Math.max(1, knobs[k].get() - over), "over the CPU budget of " + settings.cpuBudget()
                        + " threads");
            }
        }
        for (int k = knobs.length - 1; k >= 0 && bytes() > settings.memoryBudget(); k--) {
            if (!knobs[k].isThreads() && bytesPerUnit[k] > 0) {
                long others = bytes() - knobs[k].get() * bytesPerUnit[k];
                apply(k, (int) Math.max(1, (settings.memoryBudget() - others) / bytesPerUnit[k]),
                        "over the memory budget of " + (settings.memoryBudget() >> 20) + " MiB");
            }
        }
        peakThreads = threads();
    }

    private void apply(int k, int to, String why) {
        StageConcurrency c = knobs[k];
        int from = c.get();
        int set = c.set(to);
        if (set == from) {
            return;
        }
        peakThreads = Math.max(peakThreads, threads());
        String line = String.format(Locale.ROOT, "%s %d -> %d %s: %s", c.stage(), from, set,
                c.isThreads() ? "threads" : "in flight", why);
        changes.add(line);
        LOG.info("pipeline '{}' autotune: {}", pipeline.spec().name(), line);
        listener.changed(line);
    }

    private void loop() {
        try {
            // Wait for the first items: a pipeline not read yet has nothing to measure.
            while (running && stages.get(window.progressIndex()).itemsIn() == 0) {
                sleepTicks(1);
            }
            double base = measure();
            int quiet = 0;
            boolean settled = false;
            while (running) {
                if (settled) {
                    double now = measure();
                    if (Math.abs(now - settledRate) > settings.reprobeChange() * Math.max(1, settledRate)) {
                        String line = String.format(Locale.ROOT, "re-probe: throughput %.0f -> %.0f items/s",
                                settledRate, now);
                        changes.add(line);
                        LOG.info("pipeline '{}' autotune: {}", pipeline.spec().name(), line);
                        listener.changed(line);
                        java.util.Arrays.fill(raiseTried, false);
                        java.util.Arrays.fill(cutTried, false);
                        settled = false;
                        quiet = 0;
                        base = now;
                    }
                    continue;
                }
                Move move = propose();
                if (move == null) {
                    if (++quiet >= settings.stableWindows()) {
                        settled = true;
                        settledRate = base;
                        if (settledAfterNanos < 0) {
                            settledAfterNanos = System.nanoTime() - startNanos;
                        }
                        listener.settled(concurrency(), base, System.nanoTime() - startNanos);
                        continue;
                    }
                    base = measure();
                    continue;
                }
                int from = knobs[move.knob].get();
                apply(move.knob, move.to, move.why);
                double trial = measure();
                boolean raise = move.to > from;
                boolean keep = raise ? trial > base * (1 + settings.minGain())
                        : trial >= base * (1 - settings.minGain());
                if (keep) {
                    quiet = 0;
                    base = trial;
                } else {
                    if (raise) {
                        raiseTried[move.knob] = true;
                    } else {
                        cutTried[move.knob] = true;
                    }
                    apply(move.knob, from, String.format(Locale.ROOT, "%d gave %.0f items/s against %.0f (%+.1f%%, "
                            + "%s %.0f%%): reverted", move.to, trial, base, 100 * (trial / Math.max(1e-9, base) - 1),
                            raise ? "needs over +" : "allows -", 100 * settings.minGain()));
                    quiet++;
                    base = measure();
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("pipeline '{}' autotune stopped: {}", pipeline.spec().name(), e.toString(), e);
        }
    }

    /** One tick to settle, then a window of ticks: the throughput, with every share in {@link #window}. */
    private double measure() {
        sleepTicks(1);
        window.begin();
        sleepTicks(settings.windowTicks());
        for (int i = 0; i < stages.size(); i++) {
            units[i] = stages.get(i).taskSlots();
        }
        for (int k = 0; k < knobs.length; k++) {
            units[stageOf[k]] = knobs[k].get();
        }
        window.end(units);
        return window.rate;
    }

    private void sleepTicks(int n) {
        long until = System.nanoTime() + n * settings.tick().toNanos();
        for (long left; running && (left = until - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(this, left);
        }
    }

    /** A change to try: knob, new value, why. */
    private record Move(int knob, int to, String why) {
    }

    private Move propose() {
        if (window.rate <= 0) {
            return null; // nothing flowed (a paused consumer): no figure to judge a change by
        }
        // Raise the busiest stage that is not held back by its output, within the budgets.
        int best = -1;
        for (int k = 0; k < knobs.length; k++) {
            int s = stageOf[k];
            if (raiseTried[k] || window.busyShare[s] < BUSY_RAISE || window.backShare[s] > BACK_PRESSURED
                    || knobs[k].get() >= knobs[k].max()) {
                continue;
            }
            if (best < 0 || window.busyShare[s] > window.busyShare[stageOf[best]]) {
                best = k;
            }
        }
        if (best >= 0) {
            StageConcurrency c = knobs[best];
            int to = c.isThreads() ? c.get() + 1 : Math.max(c.get() + 1, (c.get() * 3 + 1) / 2);
            if (c.isThreads() && threads() + (to - c.get()) > settings.cpuBudget()) {
                to = c.get(); // at the CPU budget
            } else if (!c.isThreads() && bytesPerUnit[best] > 0) {
                long room = (settings.memoryBudget() - bytes()) / bytesPerUnit[best];
                to = (int) Math.min(to, c.get() + room);
            }
            if (to > c.get()) {
                return new Move(best, Math.min(to, c.max()), reason(best, c.isThreads() ? "+1 thread"
                        : "+" + (Math.min(to, c.max()) - c.get()) + " in flight"));
            }
        }
        // Give back what a stage does not use: a thread, or a third of the tasks in flight.
        for (int k = 0; k < knobs.length; k++) {
            int s = stageOf[k];
            StageConcurrency c = knobs[k];
            if (!cutTried[k] && c.get() > 1 && window.busyShare[s] < BUSY_CUT) {
                int to = c.isThreads() ? c.get() - 1 : Math.max(1, c.get() - Math.max(1, c.get() / 3));
                return new Move(k, to, reason(k, c.isThreads() ? "-1 thread" : "-" + (c.get() - to) + " in flight"));
            }
        }
        return null;
    }

    private String reason(int k, String what) {
        int s = stageOf[k];
        StringBuilder b = new StringBuilder(96);
        b.append(String.format(Locale.ROOT, "%s %.0f%% busy (%.2f ms a task)", knobs[k].stage(),
                100 * Math.min(1, window.busyShare[s]), window.meanTaskMillis[s]));
        if (window.backShare[s] > 0.005) {
            b.append(String.format(Locale.ROOT, ", back-pressured %.0f%%", 100 * Math.min(1, window.backShare[s])));
        }
        if (s + 1 < stages.size()) {
            b.append(String.format(Locale.ROOT, ", %s starved %.0f%%", stages.get(s + 1).stage(),
                    100 * Math.min(1, window.starvedShare[s + 1])));
        }
        StageStats st = stages.get(s);
        b.append(String.format(Locale.ROOT, ", input ring %d/%d", st.inputOccupancy(), st.inputCapacity()));
        return b.append(", ").append(String.format(Locale.ROOT, "%.0f items/s: ", window.rate)).append(what)
                .toString();
    }
}
