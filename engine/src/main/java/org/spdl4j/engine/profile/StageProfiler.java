package org.spdl4j.engine.profile;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.stats.StageStats;

/**
 * Runs one stage function alone, source -> stage -> sink, at each given concurrency over the same inputs, and
 * measures the items/s that come out of it in the steady state. Blocking (I/O) functions run on virtual threads.
 * Not thread-safe; one profile at a time.
 *
 * <p><b>Warm-up:</b> with two or more concurrencies, one unmeasured pass over the inputs at the highest concurrency
 * runs before the first point and warms up class loading, the JIT and caches (page cache, connections), so the first
 * concurrency tried is not the only cold one; a profile of {@code k} points then costs {@code k + 1} passes. With one
 * concurrency there is no other point to be fair to, and that pass would be the point's own run over again: it is
 * skipped, the point's run is its own warm-up (its ramp-up, below, is outside the figure), and the profile costs one
 * pass, not two.
 *
 * <p><b>What is measured:</b> each point pushes all the inputs through a new pipeline; its clock starts when the consumer
 * has received the first {@code max(concurrency, n / 10)} items (at most half of the {@code n} inputs) and stops when
 * it sees the end of the stream: the items received in between over that time. Building, starting and closing the
 * pipeline, its threads' first tasks (per-thread set-up) and the ramp-up are outside the figure. When no item comes
 * after that mark (fewer than two inputs, or most items failed), the figure is the items received over the time from
 * the pipeline's start to the end of the stream.
 * Failed items never reach the consumer, so they do not count as throughput; each point reports them.
 */
public final class StageProfiler {
    /** The longest pipeline name the builder accepts. */
    private static final int MAX_PIPELINE_NAME = 64;

    private StageProfiler() {
    }

    /**
     * Profiles {@code fn}.
     *
     * @param stage         name for threads and results
     * @param inputs        the items to push through at each concurrency (all of them each time, and once more to
     *                      warm up when more than one concurrency is given)
     * @param fn            the stage function; a throw counts as a failure, the run goes on
     * @param blocking      run on virtual threads (I/O) rather than platform worker threads
     * @param concurrencies the concurrencies to try, in order
     * @param <T>           input type
     * @return steady-state throughput at each concurrency
     */
    public static <T> StageProfile profile(String stage, List<T> inputs, Function<? super T, ?> fn, boolean blocking,
                                           int... concurrencies) {
        List<StageProfile.Point> points = new ArrayList<>();
        if (passes(concurrencies.length) > concurrencies.length && !inputs.isEmpty()) {
            int highest = concurrencies[0];
            for (int c : concurrencies) {
                highest = Math.max(highest, c);
            }
            run(stage, "warm-up", inputs, fn, blocking, highest);
        }
        for (int c : concurrencies) {
            points.add(run(stage, Integer.toString(c), inputs, fn, blocking, c));
        }
        return new StageProfile(stage, points);
    }

    private static <T> StageProfile.Point run(String stage, String pass, List<T> inputs, Function<? super T, ?> fn,
                                              boolean blocking, int c) {
        StageOptions options = StageOptions.defaults().withConcurrency(c).withFailureBudget(FailureBudget.UNLIMITED);
        PipelineBuilder<T> source = PipelineBuilder.<T>fromIterable(inputs).named(pipelineName(stage, pass));
        PipelineBuilder<Object> piped = blocking ? source.pipeVirtual(stage, fn, options)
            : source.pipe(stage, fn, options);
        int mark = startMark(inputs.size(), c);
        long received = 0;
        long markNanos = 0;
        long startNanos;
        long endNanos;
        long failures;
        try (Pipeline<Object> p = piped.sink(64).build()) {
            Iterator<Object> items = p.iterator();
            p.start();
            startNanos = System.nanoTime();
            while (items.hasNext()) {
                items.next(); // the consumer does no work so the stage alone sets the pace
                if (++received == mark) {
                    markNanos = System.nanoTime();
                }
            }
            endNanos = System.nanoTime(); // before close: joining the threads is not the stage's time
            failures = stageFailures(p.stats(), stage);
        }
        double itemsPerSecond;
        // The window after the mark measures the stage only when at least two waves of tasks end in it; with fewer
        // (concurrency near the number of inputs: one wave) the mark falls inside a burst of completions and the
        // window measures how fast the consumer drains them (a million items/s for 20 ms tasks).
        if (mark > 0 && received - mark >= 2L * c) {
            itemsPerSecond = (received - mark) * 1e9 / Math.max(1, endNanos - markNanos);
        } else {
            itemsPerSecond = received * 1e9 / Math.max(1, endNanos - startNanos);
        }
        return new StageProfile.Point(c, itemsPerSecond, failures);
    }

    /**
     * {@return the passes over the inputs a profile of {@code points} concurrencies runs: one per point, and one more
     * to warm up when there are two or more (a lone point is its own warm-up)}
     *
     * @param points how many concurrencies are profiled
     */
    static int passes(int points) {
        return points >= 2 ? points + 1 : points;
    }

    /**
     * {@return {@code profile-<stage>-<pass>}, the stage's name cut short where the whole would exceed the 64
     * characters a pipeline name may have (a stage name may have 64 itself)}
     */
    static String pipelineName(String stage, String pass) {
        int room = MAX_PIPELINE_NAME - "profile-".length() - 1 - pass.length();
        return "profile-" + (stage.length() <= room ? stage : stage.substring(0, room)) + "-" + pass;
    }

    /** {@return how many items the consumer receives before a point's clock starts; 0 for no window} */
    static int startMark(int inputs, int concurrency) {
        return Math.min(Math.max(concurrency, inputs / 10), inputs / 2);
    }

    private static long stageFailures(List<StageStats> stats, String stage) {
        for (StageStats s : stats) {
            if (s.stage().equals(stage)) {
                return s.failures();
            }
        }
        return 0;
    }

    /**
     * {@return 1, 2, 4, ... up to and including {@code max} (max itself added when not a power of two)}
     *
     * @param max the largest concurrency
     */
    public static int[] powersOfTwoUpTo(int max) {
        List<Integer> list = new ArrayList<>();
        for (int c = 1; c <= max; c <<= 1) {
            list.add(c);
        }
        if (list.get(list.size() - 1) != max) {
            list.add(max);
        }
        return list.stream().mapToInt(Integer::intValue).toArray();
    }
}
