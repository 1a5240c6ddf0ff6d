package org.spdl4j.engine.source.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.Polling;
import org.spdl4j.engine.source.CountingAllocator;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;

class HttpObjectFetcherTest {
    private static HttpFetchSettings settings(int inFlight) {
        // Attempt timeout 1.5 s: far above a local answer even on a loaded machine (the exact attempt counts below
        // must not move with a stall), far below the slow server's 6 s.
        return HttpFetchSettings.defaults().withMaxInFlight(inFlight).withRetries(4, Duration.ofMillis(1_500),
                Duration.ofMillis(10));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldDeliverOrReportEveryObjectExactlyOnceDespite500sSlowResponsesAndDroppedConnections()
            throws Exception {
        int n = 60;
        CountingAllocator alloc = new CountingAllocator();
        try (FaultyObjectServer server = new FaultyObjectServer(6_000, 0);
                HttpObjectFetcher fetcher = new HttpObjectFetcher(settings(8), alloc)) {
            AtomicInteger[] outcomes = new AtomicInteger[n];
            List<CompletableFuture<Sample>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                AtomicInteger count = outcomes[i] = new AtomicInteger();
                results.add(fetcher.apply(server.uri(i)).whenComplete((s, e) -> count.incrementAndGet())
                        .toCompletableFuture());
            }
            CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).exceptionally(e -> null)
                    .get(50, TimeUnit.SECONDS);
            Thread.sleep(200); // would let a duplicate completion surface
            int delivered = 0;
            for (int i = 0; i < n; i++) {
                assertThat(outcomes[i].get()).as("outcomes of object %d", i).isEqualTo(1);
                CompletableFuture<Sample> f = results.get(i);
                int kind = i % 6;
                if (kind <= 3) {
                    try (Sample s = f.join()) {
                        assertThat(s.key()).isEqualTo(server.uri(i).toString());
                        assertThat(s.field("bytes").toByteArray()).as("object %d", i)
                                .isEqualTo(FaultyObjectServer.payload(i));
                        delivered++;
                    }
                } else {
                    assertThat(f).isCompletedExceptionally();
                    Throwable cause = f.handle((s, e) -> e).join();
                    while (!(cause instanceof FetchException) && cause.getCause() != null) {
                        cause = cause.getCause();
                    }
                    FetchException fe = (FetchException) cause;
                    assertThat(fe.uri()).isEqualTo(server.uri(i));
                    assertThat(fe.lastStatus()).isEqualTo(kind == 4 ? 503 : 404);
                    assertThat(fe.attempts()).isEqualTo(kind == 4 ? 4 : 1);
                    assertThat(fe).hasMessageContaining("/obj/" + i);
                }
            }
            assertThat(delivered).isEqualTo(40);
            for (int i = 0; i < n; i++) {
                assertThat(server.attempts.get(i).get()).as("requests for %d", i).isBetween(1, 4);
            }
            assertThat(server.attempts.get(1).get()).isEqualTo(3); // 500, 500, ok
            assertThat(server.attempts.get(2).get()).isEqualTo(2); // slow, ok
            assertThat(server.attempts.get(3).get()).isEqualTo(2); // dropped mid-body, ok
            assertThat(server.attempts.get(6).get()).isEqualTo(2); // dropped before response, ok
            assertThat(fetcher.permits().peakInFlight()).isLessThanOrEqualTo(8);
            assertThat(alloc.outstanding()).as("every buffer of a failed attempt released").isZero();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldNeverHaveMoreRequestsInFlightThanTheBound() throws Exception {
        try (FaultyObjectServer server = new FaultyObjectServer(0, 30);
                HttpObjectFetcher fetcher = new HttpObjectFetcher(settings(4), new CountingAllocator())) {
            List<CompletableFuture<Sample>> results = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                results.add(fetcher.apply(server.uri(i * 6)).toCompletableFuture()); // all plain "ok" objects
            }
            for (CompletableFuture<Sample> f : results) {
                f.get(30, TimeUnit.SECONDS).close();
            }
            assertThat(server.peakConcurrent.get()).isBetween(2, 4);
            assertThat(fetcher.permits().peakInFlight()).isEqualTo(4);
            assertThat(fetcher.permits().inFlight()).isZero();
            // Each attempt's deadline was cancelled and removed when it completed: no timer task still holds a
            // delivered response (and its body) until the attempt timeout would have passed.
            assertThat(fetcher.pendingTimers()).isZero();
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldFailARequestTheClientRefusesWithAFetchExceptionNamingTheUri() throws Exception {
        try (HttpObjectFetcher fetcher = new HttpObjectFetcher(settings(2), new CountingAllocator())) {
            URI s3 = URI.create("s3://bucket/key.jpg");
            CompletableFuture<Sample> f = fetcher.apply(s3).toCompletableFuture();
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(FetchException.class)
                    .hasMessageContaining("s3://bucket/key.jpg").hasMessageContaining("not sent");
            assertThat(fetcher.permits().inFlight()).isZero();
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldSayAnAttemptTimedOut() throws Exception {
        try (FaultyObjectServer server = new FaultyObjectServer(5_000, 0);
                HttpObjectFetcher fetcher = new HttpObjectFetcher(HttpFetchSettings.defaults()
                        .withRetries(1, Duration.ofMillis(300), Duration.ofMillis(10)), new CountingAllocator())) {
            CompletableFuture<Sample> slow = fetcher.apply(server.uri(2)).toCompletableFuture(); // first attempt slow
            assertThatThrownBy(() -> slow.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(FetchException.class)
                    .hasMessageContaining("timed out after 300 ms");
        }
    }

    /**
     * Close fails what is still in progress at once: an exchange waiting on a slow server and an object waiting out
     * a long back-off both complete with a {@link FetchException}, long before their timeout or back-off.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldFailObjectsInProgressWhenClosed() throws Exception {
        try (FaultyObjectServer server = new FaultyObjectServer(20_000, 0)) {
            HttpObjectFetcher fetcher = new HttpObjectFetcher(HttpFetchSettings.defaults()
                    .withRetries(4, Duration.ofSeconds(20), Duration.ofSeconds(10)), new CountingAllocator());
            CompletableFuture<Sample> slow = fetcher.apply(server.uri(2)).toCompletableFuture();
            CompletableFuture<Sample> backingOff = fetcher.apply(server.uri(4)).toCompletableFuture(); // 503s
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while ((server.attempts.get(2) == null || server.attempts.get(4) == null) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Thread.sleep(100); // the 503 answered: its retry waits 5-10 s
            long start = System.nanoTime();
            fetcher.close();
            for (CompletableFuture<Sample> f : List.of(slow, backingOff)) {
                assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(FetchException.class);
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
            assertThat(fetcher.permits().inFlight()).isZero();
            fetcher.close(); // idempotent
        }
    }

    /**
     * When close() returns, every body an exchange collected is either in a delivered sample or back with the
     * allocator, so the owner may close the pool at once. Completion handlers run on the client's executor (the common
     * pool), after the client's own threads have ended: close waits for them too, also when the closing thread is
     * interrupted. Several rounds, closed mid-flight.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldHaveEveryBodyDeliveredOrReleasedWhenCloseReturns() throws Exception {
        try (FaultyObjectServer server = new FaultyObjectServer(20_000, 0)) {
            for (int round = 0; round < 8; round++) {
                CountingAllocator alloc = new CountingAllocator();
                HttpObjectFetcher fetcher = new HttpObjectFetcher(HttpFetchSettings.defaults().withMaxInFlight(16),
                        alloc);
                List<CompletableFuture<Sample>> all = new ArrayList<>();
                for (int i = 0; i < 200; i += 6) { // i % 6 == 0: answered at once, half of them chunked
                    for (int copy = 0; copy < 6; copy++) {
                        all.add(fetcher.apply(server.uri(i)).toCompletableFuture());
                    }
                }
                Thread.sleep(round * 3L); // close at a different point of the exchanges each round
                boolean interruptedCloser = round % 2 == 1; // an interrupt must not cut close's wait short
                if (interruptedCloser) {
                    Thread.currentThread().interrupt();
                }
                fetcher.close();
                assertThat(Thread.interrupted()).as("round %d: the closer's interrupt is kept", round)
                        .isEqualTo(interruptedCloser);
                int delivered = 0;
                for (CompletableFuture<Sample> f : all) {
                    if (f.isDone() && !f.isCompletedExceptionally()) {
                        f.join().close(); // a delivered sample is ours to close
                        delivered++;
                    }
                }
                assertThat(alloc.outstanding()).as("round %d: bodies neither delivered (%d) nor released", round,
                        delivered).isZero();
            }
        }
    }

    /**
     * close() called from a callback on an object's future runs inside that exchange's completion handler: it waits
     * for the other exchanges, not for the one it is called from (that wait could only end at close's bound, 5 s).
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldNotWaitForItsOwnExchangeWhenClosedFromAnObjectsCallback() throws Exception {
        try (FaultyObjectServer server = new FaultyObjectServer(20_000, 0)) {
            CountingAllocator alloc = new CountingAllocator();
            HttpObjectFetcher fetcher = new HttpObjectFetcher(HttpFetchSettings.defaults(), alloc);
            java.util.concurrent.atomic.AtomicLong closeNanos = new java.util.concurrent.atomic.AtomicLong(-1);
            CompletableFuture<Sample> f = fetcher.apply(server.uri(0)).toCompletableFuture();
            CompletableFuture<Void> closedFromCallback = f.thenAccept(sample -> {
                sample.close();
                long t0 = System.nanoTime();
                fetcher.close();
                closeNanos.set(System.nanoTime() - t0);
            });
            closedFromCallback.get(20, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(closeNanos.get())).as("close() from the object's callback")
                    .isLessThan(Duration.ofSeconds(3));
            assertThat(alloc.outstanding()).isZero();
        }
    }

    /**
     * A body waiting for a buffer (a full pool: the allocator blocks, ordinary back-pressure) must not hold up other
     * objects. Its attempt's deadline aborts it on the fetcher's one timer thread; before the fix that abort waited
     * for the allocation (one lock), so no other deadline fired and no retry started until the allocator gave up:
     * here object 2's slow first attempt was never timed out and the object never came.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldKeepOtherObjectsDeadlinesAndRetriesGoingWhileABodyWaitsForABuffer() throws Exception {
        CountingAllocator heap = new CountingAllocator();
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch poolFrees = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        SampleAllocator fullPool = new SampleAllocator() {
            @Override
            public ByteBuffer allocate(int size) {
                if (first.compareAndSet(true, false)) {
                    blocked.countDown();
                    try {
                        poolFrees.await(); // as a pool's acquire waits for a free slab
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new IllegalStateException("pool exhausted (test)");
                }
                return heap.allocate(size);
            }

            @Override
            public void release(ByteBuffer buffer) {
                heap.release(buffer);
            }
        };
        HttpFetchSettings s = HttpFetchSettings.defaults().withMaxInFlight(8).withRetries(3, Duration.ofMillis(500),
                Duration.ofMillis(10));
        try (FaultyObjectServer server = new FaultyObjectServer(20_000, 0);
                HttpObjectFetcher fetcher = new HttpObjectFetcher(s, fullPool)) {
            try {
                CompletableFuture<Sample> waiting = fetcher.apply(server.uri(0)).toCompletableFuture();
                assertThat(blocked.await(20, TimeUnit.SECONDS)).as("object 0's body is waiting for a buffer").isTrue();
                Thread.sleep(600); // past object 0's attempt deadline: its abort has run (or is stuck, before the fix)

                CompletableFuture<Sample> other = fetcher.apply(server.uri(2)).toCompletableFuture(); // slow first try

                try (Sample o = other.get(15, TimeUnit.SECONDS)) {
                    assertThat(o.field("bytes").toByteArray()).isEqualTo(FaultyObjectServer.payload(2));
                }
                assertThat(server.attempts.get(2).get()).as("object 2's slow attempt timed out and was retried")
                        .isEqualTo(2);
                poolFrees.countDown(); // its body fails once the allocation gives up; the retry finds a buffer
                waiting.get(15, TimeUnit.SECONDS).close();
            } finally {
                poolFrees.countDown();
            }
        }
        assertThat(heap.outstanding()).isZero();
    }

    /**
     * A caller may give up on an object's stage ({@code cancel}, {@code orTimeout}: both complete the returned future
     * itself). The object then arrives to nobody: its body must go back to the allocator, not stay out for good (a
     * pooled slab lost per abandoned object).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldReleaseTheBodyOfAnObjectWhoseStageTheCallerGaveUpOn() throws Exception {
        CountDownLatch requested = new CountDownLatch(2);
        CountDownLatch answer = new CountDownLatch(1);
        byte[] body = FaultyObjectServer.payload(0);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/gated/", ex -> {
            try (ex) {
                requested.countDown();
                answer.await();
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        CountingAllocator alloc = new CountingAllocator();
        String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/gated/";
        try {
            HttpObjectFetcher fetcher = new HttpObjectFetcher(HttpFetchSettings.defaults().withRetries(1,
                    Duration.ofSeconds(30), Duration.ofMillis(10)), alloc);
            CompletableFuture<Sample> cancelled = fetcher.apply(URI.create(base + 0)).toCompletableFuture();
            CompletableFuture<Sample> timedOut = fetcher.apply(URI.create(base + 1)).toCompletableFuture()
                    .orTimeout(1, TimeUnit.MILLISECONDS);
            assertThat(requested.await(20, TimeUnit.SECONDS)).as("both requests reached the server").isTrue();
            assertThat(cancelled.cancel(true)).isTrue();
            assertThatThrownBy(() -> timedOut.get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(
                    java.util.concurrent.TimeoutException.class);
            answer.countDown(); // both objects now arrive, to nobody
            Polling.awaitTrue("both exchanges done", () -> fetcher.permits().inFlight() == 0, Duration.ofSeconds(20));
            fetcher.close(); // waits for the exchanges' handlers, which dispose of what they collected
            assertThat(alloc.allocations()).isEqualTo(2);
            assertThat(alloc.outstanding()).as("bodies of objects whose stages were given up on").isZero();
        } finally {
            answer.countDown();
            server.stop(0);
            executor.shutdownNow();
        }
    }

    /**
     * A timeout too long for a {@code long} of nanoseconds (about 292 years; {@code ChronoUnit.FOREVER}) means no
     * limit, as everywhere in spdl4j. It failed every object as "request not sent: long overflow" (after sending
     * it), or, from 292 years to 292 million, left an object whose attempt met an I/O error never completed (its
     * handler threw while it named the error).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldTakeATimeoutTooLongForALongOfNanosAsNoLimit() throws Exception {
        for (Duration forever : List.of(java.time.temporal.ChronoUnit.FOREVER.getDuration(), Duration.ofDays(365L
                * 1000))) {
            CountingAllocator alloc = new CountingAllocator();
            HttpFetchSettings s = new HttpFetchSettings(4, 2, forever, forever, Duration.ofMillis(10),
                    Duration.ofMillis(100), HttpFetchSettings.DEFAULT_MAX_BODY_BYTES);
            assertThat(s.attemptTimeout().toNanos()).isEqualTo(Long.MAX_VALUE);
            try (FaultyObjectServer server = new FaultyObjectServer(0, 0);
                    HttpObjectFetcher fetcher = new HttpObjectFetcher(s, alloc)) {
                for (int i : new int[] {0, 3}) { // 3: the first attempt is dropped mid-body (an I/O error), then ok
                    try (Sample sample = fetcher.apply(server.uri(i)).toCompletableFuture().get(20,
                            TimeUnit.SECONDS)) {
                        assertThat(sample.field("bytes").toByteArray()).as("object %d with timeouts of %s", i,
                                forever).isEqualTo(FaultyObjectServer.payload(i));
                    }
                }
                assertThat(server.attempts.get(3).get()).isEqualTo(2);
            }
            assertThat(alloc.outstanding()).isZero();
        }
    }

    /** A zero or negative timeout is refused when the settings are made, not on every request as "not sent". */
    @Test
    void shouldRefuseTimeoutsThatAreNotPositive() {
        assertThatThrownBy(() -> HttpFetchSettings.defaults().withRetries(3, Duration.ZERO, Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeouts must be positive");
        assertThatThrownBy(() -> HttpFetchSettings.defaults().withRetries(3, Duration.ofSeconds(1),
                Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("back-offs");
        assertThatThrownBy(() -> HttpFetchSettings.defaults().withConnectTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeouts must be positive");
        assertThatThrownBy(() -> HttpFetchSettings.defaults().withMaxBodyBytes(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBodyBytes >= 0");
    }

    /** Each setting has a named default, and each {@code with*} changes its own and keeps the rest. */
    @Test
    void shouldStartFromTheNamedDefaultsAndChangeOneSettingAtATime() {
        HttpFetchSettings d = HttpFetchSettings.defaults();
        assertThat(d).isEqualTo(new HttpFetchSettings(HttpFetchSettings.DEFAULT_MAX_IN_FLIGHT,
                HttpFetchSettings.DEFAULT_MAX_ATTEMPTS, Duration.ofMillis(HttpFetchSettings.DEFAULT_ATTEMPT_TIMEOUT_MS),
                Duration.ofMillis(HttpFetchSettings.DEFAULT_CONNECT_TIMEOUT_MS),
                Duration.ofMillis(HttpFetchSettings.DEFAULT_INITIAL_BACKOFF_MS),
                Duration.ofMillis(HttpFetchSettings.DEFAULT_MAX_BACKOFF_MS), HttpFetchSettings.DEFAULT_MAX_BODY_BYTES));
        assertThat(d.withMaxBodyBytes(1 << 30)).isEqualTo(new HttpFetchSettings(d.maxInFlight(), d.maxAttempts(),
                d.attemptTimeout(), d.connectTimeout(), d.initialBackoff(), d.maxBackoff(), 1 << 30));
        assertThat(d.withConnectTimeout(Duration.ofSeconds(3))).isEqualTo(new HttpFetchSettings(d.maxInFlight(),
                d.maxAttempts(), d.attemptTimeout(), Duration.ofSeconds(3), d.initialBackoff(), d.maxBackoff(),
                d.maxBodyBytes()));
    }
}
