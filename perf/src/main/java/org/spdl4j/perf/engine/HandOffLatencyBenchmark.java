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
 * One-hop hand-off latency between two threads, as a ping-pong: the benchmark thread hands an item to an echo
 * thread, which hands it straight back. One operation = one round trip = two hops, with no queueing (one item in
 * flight), so {@code one hop ~= round trip / 2}. {@code Mode.SampleTime} gives the percentiles (p0.50 ... p0.9999)
 * of the round trip; each sample includes one {@code System.nanoTime()} pair of JMH's (~20-30 ns).
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
    private static final Item TOKEN = new Item();

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
