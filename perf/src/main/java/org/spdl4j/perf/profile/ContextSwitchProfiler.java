package org.spdl4j.perf.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports, per iteration, what the kernel's scheduler did for the benchmark JVM: context switches
 * per second and per operation (voluntary: a thread parked or blocked; involuntary: it was preempted or yielded to a
 * runnable thread), the CPUs the JVM kept busy, and the share of that CPU time spent in the kernel. On a machine
 * with fewer cores than a pipeline has threads these explain a throughput figure better than the figure itself:
 * every switch costs microseconds that no queue design saves.
 *
 * <p>Run with {@code -prof org.spdl4j.perf.profile.ContextSwitchProfiler}. Linux only (reads {@code /proc}); counts
 * every thread of the forked benchmark JVM, JMH's own included (they are idle while an iteration runs). Reading
 * {@code /proc} allocates, outside the measured iteration.
 *
 * <p>Results: {@code ctxsw.rate} and {@code ctxsw.involuntary.rate} (switches/s), {@code ctxsw.norm} (switches/op),
 * {@code cpu.busy} (CPUs kept busy on average: CPU time / wall time), {@code cpu.kernel.share} (kernel CPU time /
 * all CPU time). CPU times come in 10 ms ticks, so iterations of a second or more read them to about 1%.
 */
public final class ContextSwitchProfiler implements InternalProfiler {
    private ProcCounters before;
    private long startNanos;

    /**
     * Checks that {@code /proc} can be read.
     *
     * @throws ProfilerException if this is not Linux or {@code /proc} is unreadable
     */
    public ContextSwitchProfiler() throws ProfilerException {
        if (!ProcCounters.available()) {
            throw new ProfilerException("ContextSwitchProfiler needs Linux /proc/self/task and /proc/self/stat");
        }
    }

    @Override
    public String getDescription() {
        return "context switches, busy CPUs and kernel CPU share of the benchmark JVM (Linux /proc)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = readNow();
        startNanos = System.nanoTime();
    }

    @Override
    public List<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                    IterationResult result) {
        long elapsedNanos = System.nanoTime() - startNanos;
        ProcCounters.Delta d = readNow().since(before);
        double seconds = elapsedNanos / 1e9;
        long ops = result.getMetadata() == null ? 0
                : result.getMetadata().getAllOps(); // every op of the window, as gc.alloc.rate.norm counts them
        double cpuSeconds = (double) (d.userTicks() + d.kernelTicks()) / ProcCounters.TICKS_PER_SECOND;
        return List.of(
                new ScalarResult("ctxsw.rate", d.switches() / seconds, "switches/s", AggregationPolicy.AVG),
                new ScalarResult("ctxsw.involuntary.rate", d.involuntary() / seconds, "switches/s",
                        AggregationPolicy.AVG),
                new ScalarResult("ctxsw.norm", ops == 0 ? Double.NaN : (double) d.switches() / ops, "switches/op",
                        AggregationPolicy.AVG),
                new ScalarResult("cpu.busy", cpuSeconds / seconds, "CPUs", AggregationPolicy.AVG),
                new ScalarResult("cpu.kernel.share", d.kernelShare(), "fraction", AggregationPolicy.AVG));
    }

    private static ProcCounters readNow() {
        try {
            return ProcCounters.read();
        } catch (IOException e) {
            throw new UncheckedIOException("ContextSwitchProfiler could not read /proc: " + e.getMessage(), e);
        }
    }
}
