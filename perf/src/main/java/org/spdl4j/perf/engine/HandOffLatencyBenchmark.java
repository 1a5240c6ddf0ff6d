package org.spdl4j.perf.engine;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jctools.queues.SpscArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.WaitPolicy;

/**
 * One-hop hand-off latency between two threads, as a ping-pong: the benchmark thread hands an item to an echo
 * thread, which hands it straight back. One operation = one round trip = two hops, with no queueing (one item in
 * flight), so {@code one hop ~= round trip / 2}. {@code Mode.SampleTime} gives the percentiles (p0.50 ... p0.9999)
 * of the round trip; each sample includes one {@code System.nanoTime()} pair of JMH's (~20-30 ns).
 *
 * <p>Meant for 2 threads on 2 cores. The busy-spin variants burn both cores; with fewer free cores they measure the
 * scheduler instead.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HandOffLatencyBenchmark {
    private static final Item TOKEN = new Item();

    /** ArrayBlockingQueue both ways, blocking put/take (park/unpark when the other side waits). */
    @State(Scope.Benchmark)
    public static class BlockingQueueEcho {
        final ArrayBlockingQueue<Item> ping = new ArrayBlockingQueue<>(ItemPipeline.CAPACITY);
        final ArrayBlockingQueue<Item> pong = new ArrayBlockingQueue<>(ItemPipeline.CAPACITY);
        Thread echo;

        /** Starts the echo thread. */
        @Setup(Level.Trial)
        public void start() {
            echo = Thread.ofPlatform().name("abq-echo").daemon(true).start(() -> {
                try {
                    while (true) {
                        pong.put(ping.take());
                    }
                } catch (InterruptedException e) {
                    // stop
                }
            });
        }

        /**
         * Stops it.
         *
         * @throws InterruptedException when interrupted
         */
        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            echo.interrupt();
            echo.join(5_000);
        }
    }

    /** JCTools SPSC queues both ways, both threads busy-spinning on poll. */
    @State(Scope.Benchmark)
    public static class SpscEcho {
        final SpscArrayQueue<Item> ping = new SpscArrayQueue<>(ItemPipeline.CAPACITY);
        final SpscArrayQueue<Item> pong = new SpscArrayQueue<>(ItemPipeline.CAPACITY);
        volatile boolean running = true;
        Thread echo;

        /** Starts the echo thread. */
        @Setup(Level.Trial)
        public void start() {
            echo = Thread.ofPlatform().name("jctools-echo").daemon(true).start(() -> {
                while (running) {
                    Item it = ping.relaxedPoll();
                    if (it == null) {
                        Thread.onSpinWait();
                    } else {
                        pong.offer(it);
                    }
                }
            });
        }

        /**
         * Stops it.
         *
         * @throws InterruptedException when interrupted
         */
        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            running = false;
            echo.join(5_000);
        }
    }

    /**
     * The hardware floor: two volatile fields, each thread spinning on the other's. One op = two cache-line hops.
     */
    @State(Scope.Benchmark)
    public static class VolatileEcho {
        volatile long ping;
        volatile long pong;
        volatile boolean running = true;
        long sent;
        Thread echo;

        /** Starts the echo thread. */
        @Setup(Level.Trial)
        public void start() {
            echo = Thread.ofPlatform().name("volatile-echo").daemon(true).start(() -> {
                long seen = 0;
                while (running) {
                    long p = ping;
                    if (p == seen) {
                        Thread.onSpinWait();
                    } else {
                        seen = p;
                        pong = p;
                    }
                }
            });
        }

        /**
         * Stops it.
         *
         * @throws InterruptedException when interrupted
         */
        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            running = false;
            echo.join(5_000);
        }
    }

    /**
     * The engine: a source that emits one item per request straight into the consumer's ring
     * ({@code source -> sink}). One op = the request (one volatile write seen by the spinning source thread, the
     * {@code volatileFlag} hop) + one engine hop (source publishes to the ring, the consumer's {@code next} waits by
     * the policy). So one engine hop ~= this round trip - {@code volatileFlag} / 2.
     */
    @State(Scope.Benchmark)
    public static class EngineEcho {
        /** How the source and the consumer wait on the ring. */
        @Param({"BUSY_SPIN", "BACKOFF"})
        public WaitPolicy waitPolicy;

        final RequestedItems items = new RequestedItems();
        Pipeline<Item> pipeline;

        /** Builds and starts the pipeline. */
        @Setup(Level.Trial)
        public void start() {
            pipeline = PipelineBuilder.fromSupplier(items).named("latency").sourceWaitPolicy(waitPolicy)
                    .sink(ItemPipeline.CAPACITY, waitPolicy).build().start();
        }

        /** Ends the source, then closes the pipeline. */
        @TearDown(Level.Trial)
        public void stop() {
            items.stop();
            pipeline.close();
        }
    }

    private static final Duration FOREVER = Duration.ofDays(1);

    /**
     * Two volatile fields round trip (the floor).
     *
     * @param s the echo
     * @return the value seen
     */
    @Benchmark
    public long volatileFlag(VolatileEcho s) {
        long n = ++s.sent;
        s.ping = n;
        long p;
        while ((p = s.pong) != n) {
            Thread.onSpinWait();
        }
        return p;
    }

    /**
     * spdl4j: request + one engine ring hop, by wait policy.
     *
     * @param s the running pipeline
     * @return the item
     * @throws InterruptedException when interrupted
     * @throws TimeoutException     never (a day's timeout)
     */
    @Benchmark
    public Item spdl4j(EngineEcho s) throws InterruptedException, TimeoutException {
        s.items.request();
        return s.pipeline.next(FOREVER);
    }

    /**
     * ArrayBlockingQueue round trip.
     *
     * @param s the echo
     * @return the token
     * @throws InterruptedException when interrupted
     */
    @Benchmark
    public Item blockingQueue(BlockingQueueEcho s) throws InterruptedException {
        s.ping.put(TOKEN);
        return s.pong.take();
    }

    /**
     * JCTools SPSC busy-spin round trip.
     *
     * @param s the echo
     * @return the token
     */
    @Benchmark
    public Item jctoolsSpscBusySpin(SpscEcho s) {
        s.ping.offer(TOKEN);
        Item it;
        while ((it = s.pong.relaxedPoll()) == null) {
            Thread.onSpinWait();
        }
        return it;
    }
}
