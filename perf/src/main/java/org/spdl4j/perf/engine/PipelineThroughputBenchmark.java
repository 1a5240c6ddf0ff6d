package org.spdl4j.perf.engine;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.WaitPolicy;

/**
 * Items per second through source -> map(+1) -> map(*3) -> consumer, trivial functions, one thread per stage,
 * link capacity {@link ItemPipeline#CAPACITY}, preallocated items. One operation = one item reaching the consumer
 * (the benchmark thread takes {@link #BATCH} items per invocation; {@code @OperationsPerInvocation} divides).
 * The pipeline runs for the whole trial, so the figure is steady-state throughput, start-up excluded.
 *
 * <p>Variants, side by side in one run: {@code blockingQueue} (ExecutorService + ArrayBlockingQueue),
 * {@code jctoolsSpsc} (JCTools SPSC queues + spin/yield), {@code spdl4j} (the engine's item rings, per wait policy
 * and publish batching) and {@code spdl4jRecords} (record rings of spdl4j-records, per wait policy). Run with
 * {@code -prof gc} for {@code gc.alloc.rate.norm} (bytes per item).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(PipelineThroughputBenchmark.BATCH)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PipelineThroughputBenchmark {
    /** Items taken per invocation. */
    public static final int BATCH = 10_000;

    /**
     * Where the four threads run, the same for every variant ({@link StagePlacement}): {@code none} (the scheduler
     * decides, the default) or {@code source:map1:map2:consumer} CPU lists, e.g. {@code 0:0:1:1}.
     */
    @State(Scope.Benchmark)
    public static class PlacementState {
        /** {@code none} or {@code source:map1:map2:consumer}. */
        @Param({"none"})
        public String placement;

        StagePlacement place;

        /** Parses the placement (before the pipelines' setups, which take it). */
        @Setup(Level.Trial)
        public void parse() {
            place = StagePlacement.parse(placement);
        }

        /** Pins the benchmark thread (the consumer), if asked: per iteration, so the pin holds on JMH's thread. */
        @Setup(Level.Iteration)
        public void pinConsumer() {
            StagePlacement.pin(place.consumer(), "consumer (benchmark thread)");
        }
    }

    /** Baseline (a) for the trial. */
    @State(Scope.Benchmark)
    public static class BlockingQueueState {
        ItemPipeline pipeline;

        /**
         * Starts the pipeline's threads.
         *
         * @param p where they run
         */
        @Setup(Level.Trial)
        public void start(PlacementState p) {
            pipeline = new BlockingQueuePipeline(p.place);
        }

        /**
         * Stops them.
         *
         * @throws InterruptedException when interrupted
         */
        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            pipeline.stop();
        }
    }

    /** Baseline (b) for the trial. */
    @State(Scope.Benchmark)
    public static class SpscState {
        ItemPipeline pipeline;

        /**
         * Starts the pipeline's threads.
         *
         * @param p where they run
         */
        @Setup(Level.Trial)
        public void start(PlacementState p) {
            pipeline = new SpscQueuePipeline(p.place);
        }

        /**
         * Stops them.
         *
         * @throws InterruptedException when interrupted
         */
        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            pipeline.stop();
        }
    }

    /** The spdl4j engine for the trial, with the wait policy of every stage and the consumer. */
    @State(Scope.Benchmark)
    public static class EngineState {
        /** {@code BACKOFF} is the engine's default; {@code YIELDING} matches the JCTools baseline's idle loop. */
        @Param({"BACKOFF", "YIELDING"})
        public WaitPolicy waitPolicy;

        /**
         * {@code SHORT_TASKS} publishes each input run's results (and the source's items) as one range, the stages'
         * default; {@code PER_ITEM} publishes every item on its own, as the engine did before batching.
         */
        @Param({"SHORT_TASKS", "PER_ITEM"})
        public PublishBatching publishBatching;

        /**
         * Workers per pipe: {@code N} fixed, or {@code N/M} adjustable (M started, N working; see
         * {@code StageOptions.withMaxConcurrency}). {@code 2} against {@code 2/2} is the cost of the limit's read per
         * claim; {@code 1/2} runs with one worker parked.
         */
        @Param({"1"})
        public String workers;

        ItemPipeline pipeline;

        /**
         * Builds and starts the pipeline.
         *
         * @param p where its threads run
         */
        @Setup(Level.Trial)
        public void start(PlacementState p) {
            pipeline = new EnginePipeline(waitPolicy, publishBatching, p.place, workers);
        }

        /**
         * Closes it.
         *
         * @throws InterruptedException when interrupted
         */
        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            pipeline.stop();
        }
    }

    /** Record rings (spdl4j-records) for the trial (one off-heap ring, stages in place), per wait policy. */
    @State(Scope.Benchmark)
    public static class RecordState {
        /** The wait policy of every record stage, the source and the consumer. */
        @Param({"BACKOFF", "YIELDING"})
        public WaitPolicy recordWaitPolicy;

        /** How the record source publishes; the stages and the consumer release once per run either way. */
        @Param({"SHORT_TASKS"})
        public PublishBatching recordSourceBatching;

        /** Slot alignment: 16 packs the 8-byte records four to a cache line, 64 (the default) one to a line. */
        @Param({"16", "64"})
        public int recordSlotAlignment;

        RecordItemPipeline pipeline;

        /** Builds and starts the record pipeline. */
        @Setup(Level.Trial)
        public void start() {
            pipeline = new RecordItemPipeline(recordWaitPolicy, recordSourceBatching, recordSlotAlignment);
        }

        /** Counts the next iteration from where the consumer is now (the pipeline ran on between iterations). */
        @Setup(Level.Iteration)
        public void startIteration() {
            pipeline.startIteration();
        }

        /** Closes it. */
        @TearDown(Level.Trial)
        public void stop() {
            pipeline.stop();
        }
    }

    private static long drain(ItemPipeline p) throws InterruptedException {
        long sum = 0;
        for (int i = 0; i < BATCH; i++) {
            sum += p.take();
        }
        return sum;
    }

    /**
     * Baseline (a): ExecutorService + ArrayBlockingQueue.
     *
     * @param s the running pipeline
     * @param p where its threads run (the consumer is pinned per iteration)
     * @return a checksum (consumed by JMH)
     * @throws InterruptedException when interrupted
     */
    @Benchmark
    public long blockingQueue(BlockingQueueState s, PlacementState p) throws InterruptedException {
        return drain(s.pipeline);
    }

    /**
     * Baseline (b): JCTools SPSC queues with spin/yield idling.
     *
     * @param s the running pipeline
     * @param p where its threads run (the consumer is pinned per iteration)
     * @return a checksum
     * @throws InterruptedException when interrupted
     */
    @Benchmark
    public long jctoolsSpsc(SpscState s, PlacementState p) throws InterruptedException {
        return drain(s.pipeline);
    }

    /**
     * The spdl4j engine: Disruptor rings, the given wait policy, stats recorded per item.
     *
     * @param s the running pipeline
     * @param p where its threads run (the consumer is pinned per iteration)
     * @return a checksum
     * @throws InterruptedException when interrupted
     */
    @Benchmark
    public long spdl4j(EngineState s, PlacementState p) throws InterruptedException {
        return drain(s.pipeline);
    }

    /**
     * spdl4j's record rings (spdl4j-records): the same values and functions as {@code long}s in one off-heap ring,
     * stages transforming each record in place, the consumer an engine thread (see {@link RecordItemPipeline}).
     *
     * @param s the running record pipeline
     * @return a checksum
     * @throws InterruptedException when interrupted
     */
    @Benchmark
    public long spdl4jRecords(RecordState s) throws InterruptedException {
        return s.pipeline.awaitRecords(BATCH);
    }
}
