package org.spdl4j.perf.profile;

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
 * <p>Run with {@code -prof org.spdl4j.perf.profile.ContextSwitchProfiler}. 64-bit Linux only: it reads
 * {@code getrusage(RUSAGE_SELF)} ({@link ProcessUsage}) before and after each iteration, so it counts every thread of
 * the forked benchmark JVM, JMH's own included (idle while an iteration runs), and threads that ended during the
 * iteration (a trial's tear-down joins the benchmark's threads inside the last one). A reading allocates, outside
 * the measured iteration.
 *
 * <p>Results: {@code ctxsw.rate} and {@code ctxsw.involuntary.rate} (switches/s), {@code ctxsw.norm} (switches/op,
 * every op of the iteration as JMH counts them, as {@code gc.alloc.rate.norm} does), {@code cpu.busy} (CPUs kept busy
 * on average: CPU time / wall time), {@code cpu.kernel.share} (kernel CPU time / all CPU time).
 */
public final class ContextSwitchProfiler implements InternalProfiler {
    private ProcessUsage before;
    private long startNanos;

    /**
     * Checks that the counters can be read.
     *
     * @throws ProfilerException if this is not 64-bit Linux
     */
    public ContextSwitchProfiler() throws ProfilerException {
        if (!ProcessUsage.available()) {
            throw new ProfilerException("ContextSwitchProfiler reads getrusage on 64-bit Linux only");
        }
    }

    /** {@return whether this system supports the profiler (64-bit Linux)} */
    public static boolean supported() {
        return ProcessUsage.available();
    }

    @Override
    public String getDescription() {
        return "context switches, busy CPUs and kernel CPU share of the benchmark JVM (Linux getrusage)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = ProcessUsage.read();
        startNanos = System.nanoTime();
    }

    @Override
    public List<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                    IterationResult result) {
        long elapsedNanos = System.nanoTime() - startNanos;
        ProcessUsage d = ProcessUsage.read().since(before);
        double seconds = elapsedNanos / 1e9;
        long ops = result.getMetadata() == null ? 0
                : result.getMetadata().getAllOps(); // every op of the window, as gc.alloc.rate.norm counts them
        double cpuSeconds = (d.userMicros() + d.kernelMicros()) / 1e6;
        return List.of(
                new ScalarResult("ctxsw.rate", d.switches() / seconds, "switches/s", AggregationPolicy.AVG),
                new ScalarResult("ctxsw.involuntary.rate", d.involuntary() / seconds, "switches/s",
                        AggregationPolicy.AVG),
                new ScalarResult("ctxsw.norm", ops == 0 ? Double.NaN : (double) d.switches() / ops, "switches/op",
                        AggregationPolicy.AVG),
                new ScalarResult("cpu.busy", cpuSeconds / seconds, "CPUs", AggregationPolicy.AVG),
                new ScalarResult("cpu.kernel.share", d.kernelShare(), "fraction", AggregationPolicy.AVG));
    }
}
