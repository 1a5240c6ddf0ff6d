package org.spdl4j.engine.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.stats.StageStats;

/**
 * Runs one stage function alone, source -> stage -> sink, at each given concurrency over the same inputs, and
 * measures the items/s that come out of it (a failed item does not count). Blocking (I/O) functions run on virtual
 * threads. Not thread-safe; one profile at a time.
 */
public final class StageProfiler {
    private StageProfiler() {
    }

    /**
     * Profiles {@code fn}.
     *
     * @param stage         name for threads and results
     * @param inputs        the items to push through at each concurrency (all of them each time)
     * @param fn            the stage function; a throw counts as a failure, the run goes on
     * @param blocking      run on virtual threads (I/O) rather than platform worker threads
     * @param concurrencies the concurrencies to try, in order
     * @param <T>           input type
     * @return throughput at each concurrency
     */
    public static <T> StageProfile profile(String stage, List<T> inputs, Function<? super T, ?> fn, boolean blocking,
                                           int... concurrencies) {
        List<StageProfile.Point> points = new ArrayList<>();
        for (int c : concurrencies) {
            StageOptions options = StageOptions.defaults().withConcurrency(c).withFailureBudget(FailureBudget.UNLIMITED);
            PipelineBuilder<T> source = PipelineBuilder.<T>fromIterable(inputs).named("profile-" + stage + "-" + c);
            PipelineBuilder<Object> piped = blocking ? source.pipeVirtual(stage, fn, options)
                : source.pipe(stage, fn, options);
            long t0 = System.nanoTime();
            long failures;
            long received = 0; // failed items never reach the consumer: they are not throughput
            try (Pipeline<Object> p = piped.sink(64).build()) {
                for (Object ignored : p) {
                    received++; // the consumer does no work so the stage alone sets the pace
                }
                failures = stageFailures(p.stats(), stage);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            points.add(new StageProfile.Point(c, received / seconds, failures));
        }
        return new StageProfile(stage, points);
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
