package org.spdl4j.engine.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.engine.source.PooledSampleAllocator;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.testing.PoolLeakExtension;

/**
 * Large bodies on a pool whose large class has one or two slabs: taken in call order (a consumer that takes objects in
 * that order holds younger ones until the older are done), and a body of unknown length takes one large buffer, not a
 * chain of them. Each scenario is gated by the server and by what the allocator has handed out, not by time; the
 * pool's short acquire timeout only makes the old stall fail fast.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@ExtendWith(PoolLeakExtension.class)
class LargeBodiesTest {
    private static final int SMALL = 64 * 1024;
    private static final int LARGE = 1 << 20;

    private static HttpFetchSettings settings() {
        return new HttpFetchSettings(4, 1, Duration.ofSeconds(60), Duration.ofSeconds(10), Duration.ofMillis(10),
                Duration.ofMillis(100), LARGE);
    }

    /**
     * Object 0 answers 503 three times (back-offs of at least 0.5 + 1 + 2 s) before its body; object 1's body waits
     * for its turn all that time, more than its attempt timeout of 1.5 s. That wait is the fetcher's: counted, it
     * aborted object 1's attempt for no fault of its server (and a few more such waits failed the object).
     */
    @Test
    void shouldNotCountAWaitForTheTurnAgainstTheAttemptsDeadline() throws Exception {
        HttpFetchSettings retrying = new HttpFetchSettings(4, 4, Duration.ofMillis(1_500), Duration.ofSeconds(10),
                Duration.ofSeconds(1), Duration.ofSeconds(4), LARGE);
        try (BufferPool pool = pool("turns-deadline", 2);
             GatedServer server = new GatedServer()) {
            server.unavailableFor(0, 3);
            try (HttpObjectFetcher fetcher = new HttpObjectFetcher(retrying, new PooledSampleAllocator(pool),
                    new LargeBodies(SMALL, true))) {
                CompletableFuture<Sample> older = fetcher.apply(server.uri(0, 300_000, false)).toCompletableFuture();
                CompletableFuture<Sample> younger = fetcher.apply(server.uri(1, 300_000, false))
                        .toCompletableFuture();
                assertPayload(older, 0, 300_000);
                assertPayload(younger, 1, 300_000);
                assertThat(server.attempts.get(0).get()).isEqualTo(4);
                assertThat(server.attempts.get(1).get()).as("attempts of the body that waited for its turn")
                        .isEqualTo(1);
                assertThat(pool.inUse()).isZero();
            }
        }
    }

    private static BufferPool pool(String name, int largeSlabs) {
        return BufferPool.open(PoolConfig.builder(name).sizeClass(SMALL, 8).sizeClass(LARGE, largeSlabs)
                .acquireTimeout(Duration.ofSeconds(3)).build());
    }

    /**
     * Object 1 (300 KB, Content-Length) arrives while object 0 (the same) waits on the server; the consumer takes 0
     * first and holds 1 meanwhile. 1 took the one large slab and 0 waited for it until the pool gave up: 0 failed.
     */
    @Test
    void shouldGiveLargeBodiesTheirBuffersInCallOrder() throws Exception {
        try (BufferPool pool = pool("turns-known", 1);
             GatedServer server = new GatedServer()) {
            LargeCounting alloc = new LargeCounting(pool);
            try (HttpObjectFetcher fetcher = new HttpObjectFetcher(settings(), alloc, new LargeBodies(SMALL, true))) {
                CountDownLatch olderMayAnswer = server.gateBeforeHeaders(0);
                CompletableFuture<Sample> older = fetcher.apply(server.uri(0, 300_000, false)).toCompletableFuture();
                CompletableFuture<Sample> younger = fetcher.apply(server.uri(1, 300_000, false)).toCompletableFuture();
                awaitTrue(() -> alloc.largeOut.get() == 1 || fetcher.bodiesAwaitingTurn() == 1);
                olderMayAnswer.countDown();
                assertPayload(older, 0, 300_000);
                assertPayload(younger, 1, 300_000);
                assertThat(pool.inUse()).isZero();
            }
        }
    }

    /**
     * Object 0 is chunked (no Content-Length) and still small when object 1 (large, with Content-Length) arrives: it
     * holds its turn until it ends or takes its large buffer, since it may yet need one.
     */
    @Test
    void shouldHoldTheTurnOfABodyOfUnknownLengthUntilItTakesItsLargeBuffer() throws Exception {
        try (BufferPool pool = pool("turns-chunked", 1);
             GatedServer server = new GatedServer()) {
            LargeCounting alloc = new LargeCounting(pool);
            try (HttpObjectFetcher fetcher = new HttpObjectFetcher(settings(), alloc, new LargeBodies(SMALL, true))) {
                CountDownLatch olderMayFinish = server.gateMidBody(0, 10_000);
                CompletableFuture<Sample> older = fetcher.apply(server.uri(0, 300_000, true)).toCompletableFuture();
                awaitTrue(() -> server.firstPartSent.containsKey(0));
                CompletableFuture<Sample> younger = fetcher.apply(server.uri(1, 300_000, false)).toCompletableFuture();
                awaitTrue(() -> alloc.largeOut.get() == 1 || fetcher.bodiesAwaitingTurn() == 1);
                olderMayFinish.countDown();
                assertPayload(older, 0, 300_000);
                assertPayload(younger, 1, 300_000);
                assertThat(pool.inUse()).isZero();
            }
        }
    }

    /**
     * Two chunked bodies of 600 KB on a large class of two slabs, in any order: each grew 64 -> 128 -> 256 KiB, the
     * last two steps from the large class, each step taken while holding the one before. Once each held one large
     * slab, both waited for a second one until the pool gave up.
     */
    @Test
    void shouldGrowABodyOfUnknownLengthPastTheLargeSizeInOneStep() throws Exception {
        try (BufferPool pool = pool("grow-once", 2);
             GatedServer server = new GatedServer()) {
            LargeCounting alloc = new LargeCounting(pool);
            try (HttpObjectFetcher fetcher = new HttpObjectFetcher(settings(), alloc, new LargeBodies(SMALL, false))) {
                CountDownLatch mayFinish0 = server.gateMidBody(0, 100_000);
                CountDownLatch mayFinish1 = server.gateMidBody(1, 100_000);
                CompletableFuture<Sample> a = fetcher.apply(server.uri(0, 600_000, true)).toCompletableFuture();
                CompletableFuture<Sample> b = fetcher.apply(server.uri(1, 600_000, true)).toCompletableFuture();
                awaitTrue(() -> alloc.largeOut.get() == 2); // each holds one large slab
                mayFinish0.countDown();
                mayFinish1.countDown();
                assertPayload(a, 0, 600_000);
                assertPayload(b, 1, 600_000);
                assertThat(pool.inUse()).isZero();
            }
        }
    }

    /** Waits for an object and checks it holds the server's payload for {@code id}, then closes it. */
    private static void assertPayload(CompletableFuture<Sample> object, int id, int bytes) throws Exception {
        try (Sample s = object.get(30, TimeUnit.SECONDS)) {
            assertThat(s.field("bytes").toByteArray()).isEqualTo(GatedServer.payload(id, bytes));
        }
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(5); // bounded by the class timeout
        }
    }

    /** Pooled buffers, counting those out of the large class. */
    static final class LargeCounting implements SampleAllocator {
        final AtomicInteger largeOut = new AtomicInteger();
        private final PooledSampleAllocator pool;

        LargeCounting(BufferPool pool) {
            this.pool = new PooledSampleAllocator(pool);
        }

        @Override
        public ByteBuffer allocate(int size) {
            ByteBuffer b = pool.allocate(size);
            if (b.capacity() > SMALL) {
                largeOut.incrementAndGet();
            }
            return b;
        }

        @Override
        public void release(ByteBuffer buffer) {
            if (buffer.capacity() > SMALL) {
                largeOut.decrementAndGet();
            }
            pool.release(buffer);
        }
    }

    /**
     * Serves {@code /obj/<i>?size=<n>&chunked=<b>}: {@link #payload} of that size, held at a gate before the headers
     * or after a first part of the body when the test set one for {@code i}, after as many 503s as it was told.
     */
    static final class GatedServer implements AutoCloseable {
        final ConcurrentHashMap<Integer, Boolean> firstPartSent = new ConcurrentHashMap<>();
        final ConcurrentHashMap<Integer, AtomicInteger> attempts = new ConcurrentHashMap<>();
        private final ConcurrentHashMap<Integer, Integer> unavailable = new ConcurrentHashMap<>();
        private final ConcurrentHashMap<Integer, CountDownLatch> beforeHeaders = new ConcurrentHashMap<>();
        private final ConcurrentHashMap<Integer, CountDownLatch> midBody = new ConcurrentHashMap<>();
        private final ConcurrentHashMap<Integer, Integer> firstPart = new ConcurrentHashMap<>();
        private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        private final HttpServer server;

        static {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }

        GatedServer() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
            server.setExecutor(executor);
            server.createContext("/obj/", this::handle);
            server.start();
        }

        URI uri(int i, int size, boolean chunked) {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/obj/" + i + "?size=" + size
                    + "&chunked=" + chunked);
        }

        CountDownLatch gateBeforeHeaders(int i) {
            return beforeHeaders.computeIfAbsent(i, k -> new CountDownLatch(1));
        }

        void unavailableFor(int i, int attempts) {
            unavailable.put(i, attempts);
        }

        CountDownLatch gateMidBody(int i, int firstBytes) {
            firstPart.put(i, firstBytes);
            return midBody.computeIfAbsent(i, k -> new CountDownLatch(1));
        }

        static byte[] payload(int i, int size) {
            byte[] b = new byte[size];
            for (int j = 0; j < size; j++) {
                b[j] = (byte) (i * 31 + j * 7 + (j >> 9));
            }
            return b;
        }

        private void handle(HttpExchange ex) throws IOException {
            try (ex) {
                String path = ex.getRequestURI().getPath();
                int i = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
                String query = ex.getRequestURI().getQuery();
                int size = Integer.parseInt(query.replaceAll(".*size=(\\d+).*", "$1"));
                boolean chunked = query.contains("chunked=true");
                ex.getRequestBody().readAllBytes();
                int attempt = attempts.computeIfAbsent(i, k -> new AtomicInteger()).incrementAndGet();
                if (attempt <= unavailable.getOrDefault(i, 0)) {
                    ex.sendResponseHeaders(503, -1);
                    return;
                }
                CountDownLatch headersGate = beforeHeaders.get(i);
                if (headersGate != null) {
                    headersGate.await();
                }
                byte[] body = payload(i, size);
                ex.sendResponseHeaders(200, chunked ? 0 : size);
                try (OutputStream out = ex.getResponseBody()) {
                    Integer first = firstPart.get(i);
                    int sent = 0;
                    if (first != null) {
                        out.write(body, 0, first);
                        out.flush();
                        sent = first;
                        firstPartSent.put(i, true);
                        midBody.get(i).await();
                    }
                    out.write(body, sent, size - sent);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // the client went away
            }
        }

        @Override
        public void close() {
            beforeHeaders.values().forEach(CountDownLatch::countDown);
            midBody.values().forEach(CountDownLatch::countDown);
            server.stop(0);
            executor.shutdownNow();
        }
    }
}
