package org.spdl4j.engine.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.engine.source.PooledSampleAllocator;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.testing.PoolLeakExtension;

/** HTTP bodies collected into pooled off-heap slabs, through retries, dropped connections and chunked growth. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(PoolLeakExtension.class)
class PooledHttpFetchTest {
    private static HttpFetchSettings settings() {
        return HttpFetchSettings.defaults().withMaxInFlight(4).withRetries(4, Duration.ofSeconds(5),
                Duration.ofMillis(10));
    }

    @Test
    void shouldCollectBodiesIntoThePoolAndReturnEveryLeaseIncludingThoseOfFailedAttempts() throws Exception {
        // 0, 6: plain; 1: two 500s; 3: first attempt dropped mid-body; 12: chunked 200 KB (64 -> 128 -> 256 KiB)
        int[] objects = {0, 1, 3, 6, 12};
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("http").sizeClass(4096, 8)
                .sizeClass(64 * 1024, 2).sizeClass(256 * 1024, 2).build());
             FaultyObjectServer server = new FaultyObjectServer(0, 0);
             HttpObjectFetcher fetcher = new HttpObjectFetcher(settings(), new PooledSampleAllocator(pool))) {
            List<CompletableFuture<Sample>> results = new ArrayList<>();
            for (int i : objects) {
                results.add(fetcher.apply(server.uri(i)).toCompletableFuture());
            }
            for (int k = 0; k < objects.length; k++) {
                try (Sample s = results.get(k).get(30, TimeUnit.SECONDS)) {
                    assertThat(s.field("bytes").toByteArray()).as("object %d", objects[k])
                            .isEqualTo(FaultyObjectServer.payload(objects[k]));
                    assertThat(s.field("bytes").bytes().isDirect()).isTrue();
                }
            }
            assertThat(server.attempts.get(3).get()).as("the dropped attempt was retried").isEqualTo(2);
            assertThat(pool.inUse()).as("pool full once the samples are closed").isZero();
        }
    }

    /**
     * A chunked body (no Content-Length) of 1,000 bytes fits a pool of 4 KiB slabs: where the pool has no 64 KiB slab
     * its buffer starts at the first chunk's size (at least 4 KiB); such a pool refused the 64 KiB start ("larger
     * than its largest slab").
     */
    @Test
    void shouldCollectASmallChunkedBodyInAPoolOfSmallSlabs() throws Exception {
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("http-4k").sizeClass(4096, 4).build());
             FaultyObjectServer server = new FaultyObjectServer(0, 0);
             HttpObjectFetcher fetcher = new HttpObjectFetcher(settings(), new PooledSampleAllocator(pool))) {
            try (Sample s = fetcher.apply(server.uri(0)).toCompletableFuture().get(30, TimeUnit.SECONDS)) {
                assertThat(s.field("bytes").toByteArray()).isEqualTo(FaultyObjectServer.payload(0));
            }
            assertThat(pool.inUse()).isZero();
        }
    }

    /**
     * A chunked body of 40 KB on a pool with one 64 KiB slab: it must fit in its first buffer. Growing from a small
     * start (8, 16, 32, 64 KiB, all from that one class) held one slab while waiting for the next, which only this body
     * could free: it failed after the pool's timeout.
     */
    @Test
    void shouldNotGrowAChunkedBodyThatFitsItsFirstBuffer() {
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("http-one").sizeClass(64 * 1024, 1)
                .acquireTimeout(Duration.ofMillis(200)).build())) {
            PooledSampleAllocator alloc = new PooledSampleAllocator(pool);
            AllocatorBodySubscriber body = new AllocatorBodySubscriber(alloc, -1, 1 << 20);
            body.onSubscribe(new java.util.concurrent.Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            for (int i = 0; i < 5; i++) {
                body.onNext(List.of(java.nio.ByteBuffer.allocate(8192)));
            }
            body.onComplete();

            java.nio.ByteBuffer got = body.getBody().toCompletableFuture().join();
            assertThat(got.remaining()).isEqualTo(5 * 8192);
            alloc.release(got);
            assertThat(pool.inUse()).isZero();
        }
    }

    @Test
    void shouldFailABodyLargerThanThePoolsLargestSlabWithoutLeaking() throws Exception {
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("http-small").sizeClass(64 * 1024, 4).build());
             FaultyObjectServer server = new FaultyObjectServer(0, 0);
             HttpObjectFetcher fetcher = new HttpObjectFetcher(settings(), new PooledSampleAllocator(pool))) {
            CompletableFuture<Sample> chunked = fetcher.apply(server.uri(12)).toCompletableFuture(); // 200 KB
            CompletableFuture<Sample> small = fetcher.apply(server.uri(0)).toCompletableFuture();
            assertThat(chunked).failsWithin(30, TimeUnit.SECONDS);
            Throwable cause = chunked.handle((s, e) -> e).join();
            StringBuilder chain = new StringBuilder();
            for (Throwable t = cause; t != null; t = t.getCause()) {
                chain.append(t).append('\n');
            }
            assertThat(chain.toString()).contains("larger than its largest slab");
            small.get(30, TimeUnit.SECONDS).close();
            assertThat(pool.inUse()).isZero();
        }
    }
}
