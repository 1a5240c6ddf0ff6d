package org.spdl4j.perf.source;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.engine.source.http.HttpObjectFetcher;

/**
 * HTTP source samples/s against a loopback server with a fixed per-request delay, at 1, 8 and 64 requests in flight.
 * With delay d the ideal is {@code inFlight / d} (1 -> 100/s, 8 -> 800/s, 64 -> 6400/s at d = 10 ms) until the CPU
 * (client + server on the same machine) is the limit. One operation = one sample.
 *
 * <pre>bin/spdl4j-java -jar perf/target/benchmarks.jar HttpSourceBenchmark -f 1 -wi 1 -i 3 -w 2s -r 2s</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
public class HttpSourceBenchmark {
    static final int BATCH = 256;

    @Param({"1", "8", "64"})
    public int inFlight;

    @Param({"10"})
    public long delayMillis;

    @Param({"16384"})
    public int bodyBytes;

    LoopbackObjectServer server;
    HttpObjectFetcher fetcher;
    int next;

    @Setup(Level.Trial)
    public void start() throws IOException {
        server = new LoopbackObjectServer(delayMillis, bodyBytes);
        fetcher = new HttpObjectFetcher(HttpFetchSettings.defaults().withMaxInFlight(inFlight), SampleAllocator.HEAP);
    }

    @TearDown(Level.Trial)
    public void stop() {
        fetcher.close();
        server.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long fetch() {
        List<CompletableFuture<Sample>> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            batch.add(fetcher.apply(server.uri(next++)).toCompletableFuture());
        }
        long bytes = 0;
        for (CompletableFuture<Sample> f : batch) {
            try (Sample s = f.join()) {
                bytes += s.totalBytes();
            }
        }
        return bytes;
    }
}
