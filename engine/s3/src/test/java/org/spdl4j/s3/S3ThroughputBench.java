package org.spdl4j.s3;

import com.sun.net.httpserver.HttpServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.loader.BytesDecoder;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.offheap.batch.Batch;

/**
 * Samples per second through a loader whose decoder only copies 48 bytes (so the read path is what is measured):
 * 512 objects of 100 KB from S3Proxy in this JVM at 1, 8 and 64 GETs in flight, the same files from a local folder,
 * and the same samples as 8 tar shards from S3Proxy and from local files. Prints one line per case. Opt-in (tag
 * {@code long}): {@code mvn -pl engine/s3 -am test -Dtest=S3ThroughputBench -Dspdl4j.test.excludedGroups=
 * -Dsurefire.failIfNoSpecifiedTests=false}; the lines are in the test's output file.
 */
@Tag("long")
class S3ThroughputBench {
    private static final int OBJECTS = 512;
    private static final int BYTES = 100_000;
    private static final int SHARDS = 8;

    @TempDir
    Path dir;

    @Test
    void measure() throws Exception {
        SplittableRandom random = new SplittableRandom(1);
        Path folder = Files.createDirectories(dir.resolve("img"));
        Path shards = Files.createDirectories(dir.resolve("shards"));
        try (S3ProxyServer server = new S3ProxyServer()) {
            server.createBucket("bench");
            TestTarWriter[] tars = new TestTarWriter[SHARDS];
            for (int s = 0; s < SHARDS; s++) {
                tars[s] = new TestTarWriter();
            }
            for (int i = 0; i < OBJECTS; i++) {
                byte[] b = new byte[BYTES];
                random.nextBytes(b);
                String name = String.format(Locale.ROOT, "%05d.jpg", i);
                Files.write(folder.resolve(name), b);
                server.put("bench", "img/" + name, b);
                tars[i % SHARDS].add(String.format(Locale.ROOT, "%05d.jpg", i), b);
            }
            for (int s = 0; s < SHARDS; s++) {
                byte[] tar = tars[s].finish();
                String name = String.format(Locale.ROOT, "shard-%02d.tar", s);
                Files.write(shards.resolve(name), tar);
                server.put("bench", "shards/" + name, tar);
            }
            try (S3ObjectStore store = server.store().build()) {
                SampleSource s3Objects = store.objects("s3://bench/img/");
                SampleSource s3Shards = store.tarShards("s3://bench/shards/");
                SampleSource local = SampleSource.folder(folder, Set.of("jpg"));
                SampleSource localShards = SampleSource.tarShards(shards);
                HttpServer http = serve(folder);
                try {
                    Path urls = dir.resolve("urls.txt");
                    List<String> lines = new ArrayList<>();
                    for (int i = 0; i < OBJECTS; i++) {
                        lines.add("http://127.0.0.1:" + http.getAddress().getPort() + "/"
                            + String.format(Locale.ROOT, "%05d.jpg", i));
                    }
                    Files.write(urls, lines);
                    SampleSource httpObjects = SampleSource.list(urls);
                    rate("warm-up", s3Objects, 8);
                    rate("warm-up", httpObjects, 8);
                    rate("warm-up", local, 8);
                    for (int inFlight : new int[] {1, 8, 64}) {
                        report("s3 objects, " + inFlight + " GETs in flight", rate("s3", s3Objects, inFlight));
                        report("http objects, " + inFlight + " GETs in flight", rate("http", httpObjects, inFlight));
                        report("local files, " + inFlight + " reads in flight", rate("local", local, inFlight));
                    }
                    // Client CPU per sample: the process's CPU less the servers' threads (Jetty's for S3Proxy, the
                    // loopback server's), both in this JVM; alternated, median of 5.
                    double[] s3Cpu = new double[5];
                    double[] httpCpu = new double[5];
                    for (int r = 0; r < 5; r++) {
                        s3Cpu[r] = clientCpuMicrosPerSample("s3", s3Objects);
                        httpCpu[r] = clientCpuMicrosPerSample("http", httpObjects);
                    }
                    java.util.Arrays.sort(s3Cpu);
                    java.util.Arrays.sort(httpCpu);
                    System.out.printf(Locale.ROOT, "BENCH %-40s %8.1f us/sample (median of 5; range %.1f-%.1f)%n",
                        "client CPU, s3 objects (SDK, 8 in flight)", s3Cpu[2], s3Cpu[0], s3Cpu[4]);
                    System.out.printf(Locale.ROOT, "BENCH %-40s %8.1f us/sample (median of 5; range %.1f-%.1f)%n",
                        "client CPU, http objects (8 in flight)", httpCpu[2], httpCpu[0], httpCpu[4]);
                    busiestThreads(); // what was counted as the servers' and what as the client's
                } finally {
                    http.stop(0);
                }
                report("s3 tar shards (8 MiB parts, 4 ahead)", rate("s3-shards", s3Shards, 1));
                report("local tar shards", rate("local-shards", localShards, 1));
            }
        }
    }

    /** A loopback server of the folder's files on threads named {@code bench-http} (their CPU is the server's). */
    private static HttpServer serve(Path folder) throws java.io.IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "bench-http");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", exchange -> {
            byte[] body = Files.readAllBytes(folder.resolve(exchange.getRequestURI().getPath().substring(1)));
            exchange.sendResponseHeaders(200, body.length);
            try (var out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    /** CPU of the threads that serve (S3Proxy-Jetty-*, the loopback server's), in nanoseconds. */
    private static long serverCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo info : threads.dumpAllThreads(false, false)) {
            String name = info.getThreadName();
            if (name.startsWith("qtp") || name.startsWith("bench-http") || name.startsWith("HTTP-Dispatcher")
                    || name.regionMatches(true, 0, "s3proxy", 0, 7)) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                sum += Math.max(0, cpu);
            }
        }
        return sum;
    }

    /** Prints the ten threads that used the most CPU, to check which are the servers'. */
    private static void busiestThreads() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        java.util.Arrays.stream(threads.dumpAllThreads(false, false))
            .sorted(java.util.Comparator.comparingLong((ThreadInfo t) -> -threads.getThreadCpuTime(t.getThreadId())))
            .limit(10).forEach(t -> System.out.printf(Locale.ROOT, "BENCH thread %-40s %8.0f ms%n", t.getThreadName(),
                threads.getThreadCpuTime(t.getThreadId()) / 1e6));
    }

    /** One epoch at 8 in flight: the client's CPU (the process's less the servers') per sample, in microseconds. */
    private static double clientCpuMicrosPerSample(String name, SampleSource source) {
        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long process = os.getProcessCpuTime();
        long server = serverCpuNanos();
        long n = 0;
        try (Loader<Batch> loader = Loader.builder().name(name).source(source).decoder(new BytesDecoder())
                .batchSize(32).readConcurrency(8).decodeConcurrency(2).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    n += batch.size();
                }
            }
        }
        long client = (os.getProcessCpuTime() - process) - (serverCpuNanos() - server);
        return client / 1000.0 / n;
    }

    private static void report(String what, double rate) {
        System.out.printf(Locale.ROOT, "BENCH %-40s %8.0f samples/s%n", what, rate);
    }

    /** Best of three epochs over the source, samples per second. */
    private static double rate(String name, SampleSource source, int inFlight) {
        double best = 0;
        for (int round = 0; round < 3; round++) {
            long start = System.nanoTime();
            long n = 0;
            try (Loader<Batch> loader = Loader.builder().name(name).source(source).decoder(new BytesDecoder())
                    .batchSize(32).readConcurrency(inFlight).decodeConcurrency(2).build()) {
                for (LoadedBatch<Batch> batch : loader) {
                    try (batch) {
                        n += batch.size();
                    }
                }
            }
            best = Math.max(best, n / ((System.nanoTime() - start) / 1e9));
        }
        return best;
    }
}
