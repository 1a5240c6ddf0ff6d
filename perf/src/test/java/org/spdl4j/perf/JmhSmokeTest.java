package org.spdl4j.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.spdl4j.perf.profile.ContextSwitchProfiler;

/**
 * The JMH suite's smoke mode, run by CI: every benchmark once, briefly, in this JVM (no forks, no warm-up), so the
 * suite keeps compiling, setting up and producing a score. Not a measurement: figures come from
 * {@code bin/spdl4j-java -jar perf/target/benchmarks.jar} (see docs/benchmarks.md). GPU benchmarks are excluded (they
 * skip without a device; run them on a GPU machine as cuda-staging/README.md says).
 */
class JmhSmokeTest {
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void shouldRunEveryBenchmarkOnceAndProduceAScore() throws Exception {
        ChainedOptionsBuilder options = new OptionsBuilder()
            .include("org\\.spdl4j\\.perf\\.")
            .exclude("org\\.spdl4j\\.perf\\.cuda\\.")
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(200))
            .threads(1)
            .shouldFailOnError(true)
            // the slowest parameters are left out of the smoke run: one size each is enough to keep the code honest
            .param("photo", "small")
            .param("inFlight", "8")
            .param("sampleBytes", "16384")
            .param("size", "4096");
        boolean profiled = ContextSwitchProfiler.supported();
        if (profiled) {
            options.addProfiler(ContextSwitchProfiler.class); // our own profiler, exercised on every benchmark
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        List<String> names = new ArrayList<>();
        for (RunResult r : results) {
            names.add(r.getParams().getBenchmark());
            assertThat(r.getPrimaryResult().getScore()).as(r.getParams().getBenchmark()).isPositive();
            if (!profiled) {
                continue;
            }
            Result<?> busy = r.getSecondaryResults().get("cpu.busy");
            assertThat(busy).as("ContextSwitchProfiler's cpu.busy of " + r.getParams().getBenchmark()).isNotNull();
            assertThat(busy.getScore()).as("CPUs kept busy by " + r.getParams().getBenchmark()).isPositive();
            assertThat(r.getSecondaryResults()).containsKeys("ctxsw.rate", "ctxsw.norm", "cpu.kernel.share");
        }
        assertThat(names).as("benchmarks that ran").anyMatch(n -> n.contains(".engine."))
            .anyMatch(n -> n.contains(".offheap.")).anyMatch(n -> n.contains(".media."))
            .anyMatch(n -> n.contains(".source."));
    }
}
