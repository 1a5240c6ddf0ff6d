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
 * the run) gets one more thread (sync) or twice the tasks in flight (async; they cost memory only), within the CPU budget (the tuned
 * sync stages' threads together) and the memory budget (tasks in flight times their bytes); a sync stage under 40%
 * busy gives back a thread; when the figures ask for nothing, each knob not tried yet is probed with a raise. A raise
 * that does not pay in one window and that the figures asked for is measured over a second window; when it still
 * does not pay and the trial shows another stage limiting now, that stage is raised too and the pair judged. <b>Hysteresis:</b> a raise is kept only if throughput rose by more
 * than {@link TunerSettings#minGain()}, a cut only if it fell by no more than that; otherwise it is reverted and not
 * tried again until a re-probe. After {@link TunerSettings#stableWindows()} windows without a kept change the tuner
 * settles (tells its listener) and only watches; a change of throughput by more than
 * {@link TunerSettings#reprobeChange()} starts the search again. Every change is one log line (INFO, or DEBUG when a
 * listener is given) and one {@link TuneListener#changed} call: the stage, old -> new, and why, e.g.
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
    private static final double STARVED_NEXT = 0.20;

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
        tell(line);
    }

    /** Records a change line, logs it (INFO without a listener, DEBUG when the listener shows it) and tells it. */
    private void tell(String line) {
        changes.add(line);
        if (listener == TuneListener.NONE) {
            LOG.info("pipeline '{}' autotune: {}", pipeline.spec().name(), line);
        } else {
            LOG.debug("pipeline '{}' autotune: {}", pipeline.spec().name(), line);
        }
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
                    if (!running) {
                        return;
                    }
                    if (Math.abs(now - settledRate) > settings.reprobeChange() * Math.max(1, settledRate)) {
                        tell(String.format(Locale.ROOT, "re-probe: throughput %.0f -> %.0f items/s", settledRate,
                                now));
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
                boolean raise = move.to > from;
                announce(move.knob, from, move.to, move.why);
                double[] rates = paired(new int[] {move.knob}, new int[] {from}, new int[] {move.to});
                if (!running) {
                    return;
                }
                boolean keep = raise ? rates[1] > rates[0] * (1 + settings.minGain())
                        : rates[1] >= rates[0] * (1 - settings.minGain());
                if (!keep && raise) {
                    // Two stages may limit at once (decode raised, and now the reads cannot feed it): raise the one
                    // the trial shows limiting now too, and judge the pair against the old setting.
                    Move also = raise(move.knob);
                    if (also != null) {
                        int alsoFrom = knobs[also.knob].get();
                        announce(also.knob, alsoFrom, also.to, also.why + String.format(Locale.ROOT, " (with %s %d, "
                                + "which alone gave %+.1f%%)", knobs[move.knob].stage(), move.to,
                                100 * (rates[1] / Math.max(1e-9, rates[0]) - 1)));
                        double[] pair = paired(new int[] {move.knob, also.knob}, new int[] {from, alsoFrom},
                                new int[] {move.to, also.to});
                        if (!running) {
                            return;
                        }
                        if (pair[1] > pair[0] * (1 + settings.minGain())) {
                            quiet = 0;
                            base = pair[1];
                            cutTried[move.knob] = true;
                            cutTried[also.knob] = true;
                            continue;
                        }
                        set(also.knob, alsoFrom);
                        announce(also.knob, also.to, alsoFrom, verdict(also.to, pair, true));
                        raiseTried[also.knob] = true;
                    }
                }
                if (keep) {
                    quiet = 0;
                    base = rates[1];
                    if (raise) {
                        cutTried[move.knob] = true; // what a raise just bought is not given back at once
                    }
                } else {
                    set(move.knob, from);
                    announce(move.knob, move.to, from, verdict(move.to, rates, raise));
                    if (raise) {
                        raiseTried[move.knob] = true;
                    } else {
                        cutTried[move.knob] = true;
                    }
                    quiet++;
                    base = rates[0];
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("pipeline '{}' autotune stopped: {}", pipeline.spec().name(), e.toString(), e);
        }
    }

    private String verdict(int to, double[] rates, boolean raise) {
        return String.format(Locale.ROOT, "%d gave %.0f items/s against %.0f (%+.1f%%, %s%.0f%%; %d rounds "
                + "alternated): reverted", to, rates[1], rates[0], 100 * (rates[1] / Math.max(1e-9, rates[0]) - 1),
                raise ? "needs over +" : "allows -", 100 * settings.minGain(), settings.trialRounds());
    }

    /**
     * Measures the old setting {@code a} and the new one {@code b} of the given knobs alternately,
     * {@link TunerSettings#trialRounds()} rounds of one window each (old first), so a machine whose load changes
     * during the trial moves both sides alike. Ends on the new setting, with {@link #window} holding its last figures.
     *
     * @return {@code [mean rate at a, mean rate at b]}
     */
    private double[] paired(int[] ks, int[] a, int[] b) {
        double sa = 0;
        double sb = 0;
        for (int r = 0; r < settings.trialRounds() && running; r++) {
            for (int i = 0; i < ks.length; i++) {
                set(ks[i], a[i]);
            }
            sa += measure();
            for (int i = 0; i < ks.length; i++) {
                set(ks[i], b[i]);
            }
            sb += measure();
        }
        return new double[] {sa / settings.trialRounds(), sb / settings.trialRounds()};
    }

    /** Sets a knob without a log line (a trial's alternation), keeping the peak of threads. */
    private void set(int k, int to) {
        knobs[k].set(to);
        peakThreads = Math.max(peakThreads, threads());
    }

    /** Logs and tells one change line (the limit itself is set by the caller or by the trial). */
    private void announce(int k, int from, int to, String why) {
        StageConcurrency c = knobs[k];
        tell(String.format(Locale.ROOT, "%s %d -> %d %s: %s", c.stage(), from, to,
                c.isThreads() ? "threads" : "in flight", why));
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

    /** A change to try: knob, new value, why, and whether no figure asked for it (a probe). */
    private record Move(int knob, int to, String why, boolean probe) {
        Move(int knob, int to, String why) {
            this(knob, to, why, false);
        }
    }

    private Move propose() {
        if (window.rate <= 0) {
            return null; // nothing flowed (a paused consumer): no figure to judge a change by
        }
        Move raise = raise(-1);
        if (raise != null) {
            return raise;
        }
        Move cut = cut();
        return cut != null ? cut : probe();
    }

    /**
     * When no stage's figures ask for a change: raises the first knob not tried yet that has room in its budget, as a
     * probe. Costs the shares do not show (a dispatcher woken once per read in flight, its threads competing with
     * decode for the cores) still show in the throughput, which judges the probe as any raise.
     */
    private Move probe() {
        for (int k = 0; k < knobs.length; k++) {
            StageConcurrency c = knobs[k];
            if (raiseTried[k] || c.get() >= c.max()) {
                continue;
            }
            int to = c.isThreads() ? c.get() + 1 : 2 * c.get();
            if (c.isThreads() && threads() + (to - c.get()) > settings.cpuBudget()) {
                continue;
            }
            if (!c.isThreads() && bytesPerUnit[k] > 0) {
                to = (int) Math.min(to, c.get() + (settings.memoryBudget() - bytes()) / bytesPerUnit[k]);
            }
            to = Math.min(to, c.max());
            if (to > c.get()) {
                return new Move(k, to, "probe: " + reason(k, c.isThreads() ? "+1 thread"
                        : "+" + (to - c.get()) + " in flight"), true);
            }
        }
        return null;
    }

    /**
     * The raise the last window asks for, leaving out knob {@code excluded} (-1: none), or {@code null}.
     */
    private Move raise(int excluded) {
        // Raise the busiest stage that is not held back by its output and has room in its budget; a stage at its
        // budget leaves the raise to the next busiest.
        boolean[] passed = new boolean[knobs.length]; // once per window, on the tuner's thread
        for (;;) {
            int best = -1;
            double bestScore = 0;
            for (int k = 0; k < knobs.length; k++) {
                double score = limiting(stageOf[k]);
                if (k == excluded || passed[k] || raiseTried[k] || score <= 0 || knobs[k].get() >= knobs[k].max()) {
                    continue;
                }
                if (best < 0 || score > bestScore) {
                    best = k;
                    bestScore = score;
                }
            }
            if (best < 0) {
                break;
            }
            passed[best] = true;
            StageConcurrency c = knobs[best];
            int to = c.isThreads() ? c.get() + 1 : 2 * c.get();
            if (c.isThreads() && threads() + (to - c.get()) > settings.cpuBudget()) {
                continue; // at the CPU budget
            } else if (!c.isThreads() && bytesPerUnit[best] > 0) {
                long room = (settings.memoryBudget() - bytes()) / bytesPerUnit[best];
                to = (int) Math.min(to, c.get() + room);
            }
            to = Math.min(to, c.max());
            if (to > c.get()) {
                return new Move(best, to, reason(best, c.isThreads() ? "+1 thread" : "+" + (to - c.get())
                        + " in flight"));
            }
        }
        return null;
    }

    /**
     * How much stage {@code s} limits the run in the last window, 0 when it does not: it must not be held back by its
     * output (back-pressured at most 25%); then its busy share when at least 75% (its units are used up), else, for a
     * stage whose tasks wait rather than work (a read in flight), the starved share of the stage after it when its
     * own input is full (the stage before it back-pressured at least 20%) and the next one starves (at least 20%).
     */
    private double limiting(int s) {
        if (window.backShare[s] > BACK_PRESSURED) {
            return 0;
        }
        if (window.busyShare[s] >= BUSY_RAISE) {
            return window.busyShare[s];
        }
        boolean fed = s > 0 && window.backShare[s - 1] >= STARVED_NEXT;
        double next = s + 1 < stages.size() ? window.starvedShare[s + 1] : 0;
        return fed && next >= STARVED_NEXT ? Math.min(1, next) : 0;
    }

    /** Gives back a thread a sync stage does not use (under 40% busy, limiting nothing); or {@code null}. */
    private Move cut() {
        for (int k = 0; k < knobs.length; k++) {
            int s = stageOf[k];
            StageConcurrency c = knobs[k];
            // Threads only: a core is what a cut gives back; tasks in flight cost memory, within its budget.
            if (c.isThreads() && !cutTried[k] && c.get() > 1 && window.busyShare[s] < BUSY_CUT && limiting(s) == 0) {
                return new Move(k, c.get() - 1, reason(k, "-1 thread, frees a core"));
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
        if (s > 0 && window.backShare[s - 1] >= STARVED_NEXT) {
            b.append(String.format(Locale.ROOT, " (%s waits for room %.0f%%)", stages.get(s - 1).stage(),
                    100 * Math.min(1, window.backShare[s - 1])));
        }
        return b.append(", ").append(String.format(Locale.ROOT, "%.0f items/s: ", window.rate)).append(what)
                .toString();
    }
}
