package org.spdl4j.engine.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.source.CountingAllocator;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;

/**
 * close() while a body's onNext holds its buffer on a client thread (here stopped in the allocator right after the
 * buffer was counted out; in the wild, copying a chunk into it). The client's awaitTermination joins only its selector
 * thread, and close waited only for the exchange's handler, which returned at once (the abort leaves the buffer to
 * onNext): close returned with the buffer still out, and an owner that closed its pool next lost it (seen as a rare
 * failure of shouldHaveEveryBodyDeliveredOrReleasedWhenCloseReturns).
 */
class CloseWhileCollectingTest {
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldHaveTheBufferOfABodyStillCollectingBackWhenCloseReturns() throws Exception {
        StoppingAllocator alloc = new StoppingAllocator();
        try (FaultyObjectServer server = new FaultyObjectServer(0, 0)) {
            HttpObjectFetcher fetcher = new HttpObjectFetcher(HttpFetchSettings.defaults(), alloc);
            CompletableFuture<Sample> f = fetcher.apply(server.uri(0)).toCompletableFuture();
            assertThat(alloc.entered.await(20, TimeUnit.SECONDS)).as("onNext asked for its buffer").isTrue();
            // Lets onNext go on a while after close() began: close must wait for it (its bound is 5 s), not return
            // before it (within milliseconds, before this fires).
            Thread opener = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                alloc.mayReturn.countDown();
            });
            fetcher.close();
            assertThat(alloc.counting.outstanding()).as("buffers out when close() returned").isZero();
            assertThat(f).isCompletedExceptionally();
            opener.join();
        }
    }

    /** Counts the buffer out, then holds the allocating thread until the test lets it go (interrupts ignored). */
    static final class StoppingAllocator implements SampleAllocator {
        final CountingAllocator counting = new CountingAllocator();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch mayReturn = new CountDownLatch(1);

        @Override
        public ByteBuffer allocate(int size) {
            ByteBuffer b = counting.allocate(size);
            entered.countDown();
            boolean interrupted = false;
            while (true) {
                try {
                    mayReturn.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return b;
        }

        @Override
        public void release(ByteBuffer buffer) {
            counting.release(buffer);
        }
    }
}
