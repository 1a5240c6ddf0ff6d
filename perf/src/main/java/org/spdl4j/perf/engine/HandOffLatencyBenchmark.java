package org.spdl4j.perf.engine;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One-hop hand-off latency between two threads, as a ping-pong with one item in flight: the benchmark thread raises a
 * volatile request that the echo thread spins on (the same hop in every variant), and the echo hands an item back by
 * the mechanism under test: two volatile fields ({@code volatileFlag}, the floor), an engine ring
 * ({@code spdl4j}, the echo being the pipeline's source thread), a JCTools SPSC queue or an ArrayBlockingQueue. One
 * operation = one round trip. {@code Mode.SampleTime} gives its percentiles; each sample includes one
 * {@code System.nanoTime()} pair of JMH's (about 48 ns on the 2-vCPU VM, see {@code StatsRecordingBenchmark}).
 *
 * <p>What it bounds: the hop under test is part of the round trip, so its p99 is at most the round trip's p99 (no
 * halving; a percentile of a sum is not twice a percentile of a half). Its typical cost is about the round trip's
 * median minus half the floor's.
 *
 * <p>Meant for 2 threads on 2 cores. The busy-spin variants burn both cores; with fewer free cores they measure the
 * scheduler instead. {@code -p pinTo=0:1} pins the benchmark thread to CPU 0 and the echo thread (the engine's
 * source thread for {@code spdl4j}) to CPU 1 (see {@link PinnedCpus}); the default {@code none} leaves both to the
 * scheduler. Pinning helps only on cores nothing else uses.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HandOffLatencyBenchmark {
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
     * Request + ArrayBlockingQueue hop back.
     *
     * @param s the echo
     * @return the item
     * @throws InterruptedException when interrupted
     */
    @Benchmark
    public Item blockingQueue(BlockingQueueEcho s) throws InterruptedException {
        s.requests.request();
        return s.pong.take();
    }

    /**
     * Request + JCTools SPSC hop back, busy-spinning on poll.
     *
     * @param s the echo
     * @return the item
     */
    @Benchmark
    public Item jctoolsSpscBusySpin(SpscEcho s) {
        s.requests.request();
        Item it;
        while ((it = s.pong.relaxedPoll()) == null) {
            Thread.onSpinWait();
        }
        return it;
    }
}
