package org.spdl4j.engine.source.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.source.CountingAllocator;
import org.spdl4j.engine.source.Sample;

/** The fetcher's per-endpoint circuit breaker against a server that fails and one that is not there at all. */
class HttpCircuitBreakerTest {
    static {
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldFailFastWithoutRequestsWhileOpenAndCloseAfterASuccessfulTrial() throws Exception {
        AtomicBoolean healthy = new AtomicBoolean();
        AtomicInteger requests = new AtomicInteger();
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(executor);
        server.createContext("/", ex -> {
            try (ex) {
                requests.incrementAndGet();
                if (healthy.get()) {
                    ex.sendResponseHeaders(200, 3);
                    ex.getResponseBody().write(new byte[] {1, 2, 3});
                } else {
                    ex.sendResponseHeaders(503, -1);
                }
            }
        });
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        HttpFetchSettings s = HttpFetchSettings.defaults().withMaxInFlight(1)
            .withRetries(1, Duration.ofSeconds(10), Duration.ofMillis(1))
            .withCircuitBreaker(new CircuitBreakerSettings(3, Duration.ofMillis(400)));
        CountingAllocator alloc = new CountingAllocator();
        try (HttpObjectFetcher fetcher = new HttpObjectFetcher(s, alloc)) {
            for (int i = 0; i < 3; i++) {
                int n = i;
                assertThatThrownBy(() -> fetch(fetcher, base + "/" + n)).hasMessageContaining("HTTP 503");
            }
            assertThat(requests.get()).isEqualTo(3);
            long start = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                int n = i;
                assertThatThrownBy(() -> fetch(fetcher, base + "/open" + n)).isInstanceOf(FetchException.class)
                    .hasMessageContaining("endpoint " + base + " is down")
                    .hasMessageContaining("3 consecutive failed requests since");
            }
            assertThat(requests.get()).as("no request while open").isEqualTo(3);
            assertThat(System.nanoTime() - start).as("fail fast").isLessThan(TimeUnit.MILLISECONDS.toNanos(350));
            healthy.set(true);
            Thread.sleep(450); // the cool-down passes
            try (Sample trial = fetch(fetcher, base + "/trial")) {
                assertThat(trial.fields().get(0).bytes().remaining()).isEqualTo(3);
            }
            try (Sample after = fetch(fetcher, base + "/after")) {
                assertThat(after.key()).endsWith("/after");
            }
            assertThat(requests.get()).isEqualTo(5);
        } finally {
            server.stop(0);
            executor.close();
        }
        assertThat(alloc.outstanding()).isZero();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldStopSendingToAnEndpointThatRefusesConnections() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: connections to it are refused
        }
        HttpFetchSettings s = HttpFetchSettings.defaults().withMaxInFlight(4)
            .withRetries(4, Duration.ofSeconds(5), Duration.ofMillis(1))
            .withCircuitBreaker(new CircuitBreakerSettings(5, Duration.ofSeconds(60)));
        try (HttpObjectFetcher fetcher = new HttpObjectFetcher(s, new CountingAllocator())) {
            List<CompletableFuture<Sample>> all = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                all.add(fetcher.apply(URI.create("http://127.0.0.1:" + port + "/" + i)).toCompletableFuture());
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).exceptionally(e -> null)
                .get(30, TimeUnit.SECONDS);
            assertThat(all).allMatch(CompletableFuture::isCompletedExceptionally);
            // without the breaker: 200 objects x 4 attempts; with it, the threshold plus the attempts in flight
            assertThat(fetcher.attemptsMade()).isLessThan(5 + 4 * 4 + 1);
            assertThatThrownBy(() -> all.get(199).get()).hasMessageContaining("endpoint http://127.0.0.1:" + port
                + " is down");
        }
    }

    private static Sample fetch(HttpObjectFetcher fetcher, String uri) throws Exception {
        try {
            return fetcher.apply(URI.create(uri)).toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }
}
