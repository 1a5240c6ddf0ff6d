package org.spdl4j.perf.engine;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.spdl4j.engine.stats.PipelineStats;
import org.spdl4j.engine.stats.SampledTaskTimer;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.engine.stats.StatsConfiguration;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * What the per-stage stats cost a worker per task, single-threaded: the {@code System.nanoTime()} pair that times a
 * task, {@link WorkerStats#onTask(long)} (HdrHistogram {@code SingleWriterRecorder} + two counters), a counter alone,
 * and everything a worker records per item. Also the reader's cost of one {@link PipelineStats#sample()} (interval
 * swap + merge of a 4-worker stage). Run with {@code -prof gc}: every method should show 0 B/op.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class StatsRecordingBenchmark {
    private final StageStats stage = new StageStats("bench", "map", 4, () -> 0, 1024);
    private final WorkerStats worker = stage.worker(0);
    private final PipelineStats pipeline = new PipelineStats("bench", List.of(stage));
    private final SampledTaskTimer timer = new SampledTaskTimer(worker);
    private long value = 100;

    /**
     * Two {@code System.nanoTime()} calls: the price of timing a task at all.
     *
     * @return the difference
     */
    @Benchmark
    public long nanoTimePair() {
        long t = System.nanoTime();
        return System.nanoTime() - t;
    }

    /** One counter (ordered store, single writer). */
    @Benchmark
    public void onItemIn() {
        worker.onItemIn();
    }

    /** One task time into the histogram recorder, plus the task and busy counters. */
    @Benchmark
    public void onTask() {
        value = (value + 97) & 0xFFFF; // varying values: different histogram buckets
        worker.onTask(value + 100);
    }

    /**
     * What a worker records per item when every task is timed (tasks of 2 µs or more): in, a timed task (nanoTime
     * pair), out.
     */
    @Benchmark
    public void perItem() {
        worker.onItemIn();
        long t = System.nanoTime();
        worker.onTask(System.nanoTime() - t);
        worker.onItemOut();
    }

    /**
     * What a worker of short tasks records per item, as the engine's workers do: in, the task through the
     * {@link SampledTaskTimer} (timed one in {@link StatsConfiguration#TIMING_SAMPLE_PERIOD}, or one in
     * {@link StatsConfiguration#TIMING_TINY_SAMPLE_PERIOD} while tasks are tiny, as this empty one normally is; the
     * others counted), out.
     */
    @Benchmark
    public void perItemSampled() {
        worker.onItemIn();
        long t = timer.start();
        timer.stop(t);
        worker.onItemOut();
    }

    /**
     * The reader's side: one interval swap and merge for a 4-worker stage, with a task recorded between samples.
     *
     * @return the sample's clock
     */
    @Benchmark
    public long sample() {
        worker.onTask(1_000);
        return pipeline.sample();
    }
}
