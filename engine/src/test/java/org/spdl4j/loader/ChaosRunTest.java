package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolRegistry;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/**
 * Everything going wrong at once, in three loaders running side by side: a folder with hung reads (FIFOs, as a hung
 * mount), empty and truncated files; tar shards one of which is cut in the middle; a URL list over a healthy server,
 * one that dies part-way and one that drips its bytes. The run ends within a bound, every good sample is delivered
 * exactly once, every bad one is told once to the failure listener naming it, and no loader thread or pool is left.
 */
class ChaosRunTest {
    private static final Duration BOUND = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    private final List<HttpServer> servers = new ArrayList<>();
    private final List<Path> fifos = new ArrayList<>();

    /** Good samples read "id:...;" ; a sample without the closing ';' was cut short. */
    private static final class CheckingDecoder implements SlotDecoder {
        @Override
        public DType dtype() {
            return DType.U8;
        }

        @Override
        public long[] sampleShape() {
            return new long[] {64};
        }

        @Override
        public void decode(EncodedSample sample, long destination, int length) {
            UnsafeBuffer src = new UnsafeBuffer(sample.address(), sample.length());
            if (sample.length() < 4 || src.getByte(0) != 'i' || src.getByte(sample.length() - 1) != ';') {
                throw new SampleException(sample.key(), "truncated: " + sample.length() + " bytes without the end mark",
                    null);
            }
            UnsafeBuffer dst = new UnsafeBuffer(destination, length);
            dst.setMemory(0, length, (byte) 0);
            dst.putBytes(0, src, 0, Math.min(length, sample.length()));
        }
    }

    /** What one loader delivered and was told of. */
    record Outcome(List<String> delivered, List<SampleFailure> failures, Duration took) {
    }

    private static byte[] good(String name) {
        return ("id:" + name + ";").getBytes(StandardCharsets.UTF_8);
    }

    private Outcome load(String name, SampleSource source, HttpFetchSettings http) {
        List<String> keys = new ArrayList<>();
        List<SampleFailure> failures = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        LoaderBuilder<Batch> recipe = Loader.builder().name(name).source(source).decoder(new CheckingDecoder())
            .batchSize(4).decodeConcurrency(2).readTimeout(Duration.ofSeconds(1)).onFailure(failures::add);
        if (http != null) {
            recipe.http(http);
        }
        try (Loader<Batch> loader = recipe.build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        keys.add(batch.key(i));
                    }
                }
            }
        }
        return new Outcome(keys, failures, Duration.ofNanos(System.nanoTime() - start));
    }

    @Test
    void shouldDeliverEveryGoodSampleOnceAndNameEveryBadOneOnce() throws Exception {
        // The folder: 30 good files, 2 hung reads, 2 empty files, 3 truncated files.
        List<SampleEntry> files = new ArrayList<>();
        Set<String> goodFiles = new HashSet<>();
        Set<String> badFiles = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            Path f = dir.resolve("f" + i + ".bin");
            Files.write(f, good("f" + i));
            files.add(SampleEntry.file(f, 0));
            goodFiles.add(f.toString());
        }
        for (int i = 0; i < 2; i++) {
            Path fifo = dir.resolve("hung" + i + ".bin");
            assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
            fifos.add(fifo);
            files.add(SampleEntry.file(fifo, 0));
            Path empty = Files.write(dir.resolve("empty" + i + ".bin"), new byte[0]);
            files.add(SampleEntry.file(empty, 0));
            badFiles.addAll(List.of(fifo.toString(), empty.toString()));
        }
        for (int i = 0; i < 3; i++) {
            byte[] whole = good("cut" + i + "-" + "x".repeat(100));
            Path cut = Files.write(dir.resolve("cut" + i + ".bin"), Arrays.copyOf(whole, whole.length / 2));
            files.add(SampleEntry.file(cut, 0));
            badFiles.add(cut.toString());
        }
        Collections.shuffle(files, new java.util.Random(5));

        // Tar shards: four of 10 samples; the third cut in the middle of its sixth member.
        List<Path> shards = new ArrayList<>();
        Set<String> goodMembers = new HashSet<>();
        for (int s = 0; s < 4; s++) {
            TestTarWriter tar = new TestTarWriter();
            Path shard = dir.resolve("shard-" + s + ".tar");
            for (int i = 0; i < 10; i++) {
                String member = "m" + s + "-" + i;
                tar.add(member + ".bin", good(member + "-" + "y".repeat(600))); // header 512 + data 1024 each
                if (s != 2 || i < 5) {
                    goodMembers.add(shard + "@" + member);
                }
            }
            byte[] bytes = tar.finish();
            Files.write(shard, s == 2 ? Arrays.copyOf(bytes, 5 * 1536 + 700) : bytes);
            shards.add(shard);
        }

        // URLs: 20 on a healthy server, 20 on one that dies after 6 answers, 4 on one that drips a byte at a time.
        String healthy = serve(good -> true, false);
        AtomicInteger answered = new AtomicInteger();
        String dies = serve(path -> answered.incrementAndGet() <= 6, false);
        String drips = serve(path -> true, true);
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            urls.add(healthy + "h" + i);
            urls.add(dies + "d" + i);
        }
        for (int i = 0; i < 4; i++) {
            urls.add(drips + "slow" + i);
        }
        Path list = Files.write(dir.resolve("urls.txt"), urls);
        HttpFetchSettings http = HttpFetchSettings.defaults()
            .withRetries(2, Duration.ofSeconds(1), Duration.ofMillis(50)).withMaxInFlight(8);

        ExecutorService runs = Executors.newFixedThreadPool(3);
        Future<Outcome> folder = runs.submit(() -> load("chaos-folder", SampleSource.of(files), null));
        Future<Outcome> tar = runs.submit(() -> load("chaos-tar", SampleSource.tarShards(shards), null));
        Future<Outcome> web = runs.submit(() -> load("chaos-urls", SampleSource.list(list), http));
        Outcome folderRun;
        Outcome tarRun;
        Outcome webRun;
        try {
            folderRun = folder.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            tarRun = tar.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            webRun = web.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        } finally {
            runs.shutdownNow();
        }

        // The folder: the good files once each, every bad one named once (and no good one).
        assertThat(folderRun.delivered()).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(goodFiles);
        assertThat(keysOf(folderRun)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(badFiles);
        for (SampleFailure f : folderRun.failures()) {
            assertThat(Causes.messages(f.cause())).as(f.toString()).contains(Path.of(f.key()).getFileName().toString());
            assertThat(f.epoch()).isZero();
        }

        // Tar shards: the samples before the cut and the other shards' once each; the cut shard named once.
        assertThat(tarRun.delivered()).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(goodMembers);
        assertThat(tarRun.failures()).hasSize(1);
        assertThat(tarRun.failures().get(0).key()).contains("shard-2.tar");
        assertThat(Causes.messages(tarRun.failures().get(0).cause())).contains("shard-2.tar");

        // URLs: every answered URL once; each URL of the dead server not answered and each dripping one named once.
        Set<String> served = new HashSet<>(okServed);
        assertThat(webRun.delivered()).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(served);
        Set<String> bad = new HashSet<>(urls);
        bad.removeAll(served);
        assertThat(bad).hasSizeGreaterThanOrEqualTo(14 + 4);
        assertThat(keysOf(webRun)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(bad);
        for (SampleFailure f : webRun.failures()) {
            String endpoint = f.key().substring(0, f.key().indexOf('/', "http://".length()));
            assertThat(Causes.messages(f.cause())).as(f.toString()).containsAnyOf(f.key(), endpoint.substring(7));
        }

        for (Outcome o : List.of(folderRun, tarRun, webRun)) {
            assertThat(o.took()).isLessThan(BOUND);
        }
        unblockFifos();
        assertNothingLeft();
    }

    /** URLs the healthy and the dying server answered with a body (recorded by their handlers). */
    private final Set<String> okServed = ConcurrentHashMap.newKeySet();

    /**
     * Starts a loopback server: answers "id:<path>;" while {@code answers} says so, else closes the connection
     * unanswered (a server gone); {@code drip} sends the body a byte every 400 ms.
     */
    private String serve(java.util.function.Predicate<String> answers, boolean drip) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "chaos-server");
            t.setDaemon(true);
            return t;
        }));
        String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
        server.createContext("/", (HttpExchange exchange) -> {
            String path = exchange.getRequestURI().getPath().substring(1);
            if (!answers.test(path)) {
                exchange.close(); // no status, no body: the client sees the connection end
                Thread stopper = new Thread(() -> server.stop(0), "chaos-server"); // and every later one is refused
                stopper.setDaemon(true);
                stopper.start();
                return;
            }
            byte[] body = good(path);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < body.length; i++) {
                    out.write(body[i]);
                    if (drip) {
                        out.flush();
                        try {
                            Thread.sleep(400);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            } catch (IOException clientGone) {
                return;
            }
            if (!drip) {
                okServed.add(base + path);
            }
        });
        server.start();
        servers.add(server);
        return base;
    }

    private static List<String> keysOf(Outcome o) {
        return o.failures().stream().map(SampleFailure::key).toList();
    }

    private void unblockFifos() {
        for (Path fifo : fifos) {
            try (OutputStream unblock = Files.newOutputStream(fifo)) {
                unblock.write('x');
            } catch (IOException readerGone) {
                // the reader opened and closed its end already
            }
        }
        fifos.clear();
    }

    private static void assertNothingLeft() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> threads;
        List<String> pools;
        do {
            threads = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.contains("chaos-") && !n.equals("chaos-server")).toList();
            pools = PoolRegistry.livePools().stream().map(BufferPool::name).filter(n -> n.startsWith("chaos-"))
                .toList();
            if (threads.isEmpty() && pools.isEmpty()) {
                return;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        assertThat(threads).as("loader threads left").isEmpty();
        assertThat(pools).as("loader pools left").isEmpty();
    }

    @AfterEach
    void stop() {
        unblockFifos();
        servers.forEach(s -> s.stop(0));
    }
}
