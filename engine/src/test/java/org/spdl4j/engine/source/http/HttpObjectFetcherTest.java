package org.spdl4j.engine.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.source.CountingAllocator;
import org.spdl4j.engine.source.Sample;

class HttpObjectFetcherTest {
    private static HttpFetchSettings settings(int inFlight) {
        return HttpFetchSettings.defaults().withMaxInFlight(inFlight).withRetries(4, Duration.ofMillis(500),
                Duration.ofMillis(10));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldDeliverOrReportEveryObjectExactlyOnceDespite500sSlowResponsesAndDroppedConnections()
            throws Exception {
        int n = 60;
        CountingAllocator alloc = new CountingAllocator();
        try (FaultyObjectServer server = new FaultyObjectServer(2_000, 0);
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
        }
    }
}
