package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.testing.PoolLeakExtension;

@ExtendWith(PoolLeakExtension.class)
@Timeout(30)
class BufferPoolTest {
    private static PoolConfig.Builder small(String name) {
        return PoolConfig.builder(name).sizeClass(1024, 4).sizeClass(100, 2).acquireTimeout(Duration.ofMillis(50));
    }

    @Test
    void shouldPickSmallestFittingClassAndAlignSlabs() {
        try (BufferPool pool = BufferPool.open(small("pick").build())) {
            final Lease a = pool.acquire(100);
            final Lease b = pool.acquire(101);
            assertThat(a.slabCapacity()).isEqualTo(100);
            assertThat(b.slabCapacity()).isEqualTo(1024);
            assertThat(b.capacity()).isEqualTo(101);
            assertThat(b.buffer().capacity()).as("view covers exactly the bytes asked").isEqualTo(101);
            assertThat(a.address() % 64).isZero();
            assertThat(b.address() % 64).isZero();
            a.release();
            b.release();
        }
    }

    @Test
    void shouldHonourDmaAlignment() {
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("dma").dmaAligned().sizeClass(5000, 3).build())) {
            final Lease[] leases = {pool.acquire(5000), pool.acquire(5000), pool.acquire(1)};
            for (Lease l : leases) {
                assertThat(l.address() % 4096).isZero();
                l.release();
            }
        }
        // Integer.MIN_VALUE has a single bit set, but is no alignment.
        for (int bad : new int[] {0, 3, -64, Integer.MIN_VALUE}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> PoolConfig.builder("bad").alignment(bad))
                    .as("alignment %d", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("power of two");
        }
    }

    @Test
    void shouldFailAtOnceForItemLargerThanEveryClass() {
        try (BufferPool pool = BufferPool.open(small("big").build())) {
            assertThatThrownBy(() -> pool.acquire(1025)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("pool 'big'").hasMessageContaining("1025 B")
                    .hasMessageContaining("largest slab (1024 B)");
            assertThatThrownBy(() -> pool.acquire(0)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void shouldTimeOutNamingPoolSizeUseAndHighWater() {
        try (BufferPool pool = BufferPool.open(small("tiny").build())) {
            final Lease a = pool.acquire(10);
            final Lease b = pool.acquire(10);
            final long start = System.nanoTime();
            assertThatThrownBy(() -> pool.acquire(50)).isInstanceOf(PoolExhaustedException.class)
                    .hasMessageContaining("pool 'tiny'").hasMessageContaining("50 B")
                    .hasMessageContaining("100 B: 2/2 in use, high-water 2")
                    .hasMessageContaining("1024 B: 0/4 in use");
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
            assertThat(pool.tryAcquire(10)).isNull();
            final SizeClassStats stats = pool.stats().classes().get(0);
            assertThat(stats.waits()).isEqualTo(1);
            assertThat(stats.timeouts()).isEqualTo(1);
            a.release();
            b.release();
            assertThat(pool.stats().inUse()).isZero();
            assertThat(pool.stats().classes().get(0).highWater()).isEqualTo(2);
        }
    }

    /**
     * A timeout too long for a long of nanoseconds (ChronoUnit.FOREVER) means no timeout, not an exception, and not
     * "do not wait": an acquire from an exhausted class waits past the pool's default timeout until a lease returns.
     */
    @Test
    void shouldTakeATimeoutOfForever() throws Exception {
        final Duration forever = java.time.temporal.ChronoUnit.FOREVER.getDuration();
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("forever").sizeClass(64, 1)
                .acquireTimeout(Duration.ofMillis(50)).build())) {
            final Lease held = pool.acquire(10);
            java.util.concurrent.CompletableFuture<Lease> waiter = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> pool.acquire(10, forever), java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            Thread.sleep(300); // six times the pool's default timeout
            assertThat(waiter).as("still waiting for the one slab").isNotDone();
            held.release();
            Lease got = waiter.get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(got.capacity()).isGreaterThanOrEqualTo(10);
            got.release();
        }
        try (BufferPool pool = BufferPool.open(small("forever-default").acquireTimeout(forever).build())) {
            pool.acquire(10).release(); // FOREVER as the pool's own timeout is accepted too
        }
    }

    @Test
    void shouldWakeWaiterWhenLeaseIsReleased() throws Exception {
        try (BufferPool pool = BufferPool.open(small("wake").acquireTimeout(Duration.ofSeconds(10)).build())) {
            final Lease a = pool.acquire(10);
            final Lease b = pool.acquire(10);
            final CompletableFuture<Lease> waiter = CompletableFuture.supplyAsync(() -> pool.acquire(10));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (pool.stats().classes().get(0).waits() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5); // until the waiter found the class empty (no fixed sleep: it may start late)
            }
            assertThat(waiter).isNotDone();
            b.release();
            final Lease c = waiter.get(5, TimeUnit.SECONDS);
            assertThat(c).isSameAs(b);
            assertThat(pool.stats().classes().get(0).waits()).isEqualTo(1);
            a.release();
            c.release();
        }
    }

    /**
     * A waiter woken by close is refused as any acquire on a closed pool is (IllegalStateException), not told the
     * pool is exhausted (release sooner, enlarge the class: wrong advice), and it is not counted as a timeout.
     */
    @Test
    void shouldFailAWaiterWithIllegalStateWhenThePoolCloses() throws Exception {
        final BufferPool pool = BufferPool.open(PoolConfig.builder("closing").sizeClass(64, 1)
                .acquireTimeout(Duration.ofSeconds(10)).build());
        final Lease held = pool.acquire(64);
        try {
            final CompletableFuture<Lease> waiter = CompletableFuture.supplyAsync(() -> pool.acquire(64));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (pool.stats().classes().get(0).waits() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            pool.close();
            assertThatThrownBy(() -> waiter.get(5, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("pool 'closing' is closed");
            assertThat(pool.stats().classes().get(0).timeouts()).as("a close is not a timeout").isZero();
        } finally {
            held.release();
        }
        assertThat(pool.isFreed()).isTrue();
    }

    @Test
    void shouldFreeMemoryOnCloseOrWhenLastLeaseReturns() {
        final DirectMemoryAllocator allocator = new DirectMemoryAllocator();
        final BufferPool idle = BufferPool.open(small("idle").allocator(allocator).build());
        assertThat(allocator.liveBlocks()).isEqualTo(2);
        idle.close();
        assertThat(allocator.liveBlocks()).isZero();
        assertThat(PoolRegistry.livePools()).doesNotContain(idle);

        final BufferPool busy = BufferPool.open(small("busy").allocator(allocator).build());
        final Lease held = busy.acquire(500);
        busy.close();
        assertThat(allocator.liveBlocks()).as("a writer may still hold memory").isEqualTo(2);
        assertThatThrownBy(() -> busy.acquire(1)).hasMessageContaining("pool 'busy' is closed");
        held.buffer().putLong(0, 7L);
        held.release();
        assertThat(allocator.liveBlocks()).isZero();
        assertThat(busy.isFreed()).isTrue();
    }

    /** Direct memory whose next {@code failFrees} frees fail without freeing (kept to free them at the end). */
    private static final class FailingFreeAllocator implements MemoryAllocator {
        final DirectMemoryAllocator real = new DirectMemoryAllocator();
        final java.util.List<long[]> notFreed = new java.util.ArrayList<>();
        int failFrees;

        @Override
        public long allocate(long bytes, int alignment) {
            return real.allocate(bytes, alignment);
        }

        @Override
        public synchronized void free(long address, long bytes, int alignment) {
            if (failFrees > 0) {
                failFrees--;
                notFreed.add(new long[] {address, bytes, alignment});
                throw new IllegalStateException("free(0x" + Long.toHexString(address) + ") refused (test)");
            }
            real.free(address, bytes, alignment);
        }

        @Override
        public String name() {
            return "failing-free";
        }

        void freeTheRefused() {
            for (long[] block : notFreed) {
                real.free(block[0], block[1], (int) block[2]);
            }
        }
    }

    /**
     * A failing free at close must not stop the other classes' memory being freed, nor leave the pool registered
     * (it would read as live and full, hiding it from leak checks); close reports it naming the pool.
     */
    @Test
    void shouldFreeEveryClassAndUnregisterWhenAFreeFailsAtClose() {
        final FailingFreeAllocator allocator = new FailingFreeAllocator();
        final BufferPool pool = BufferPool.open(small("free-fails").allocator(allocator).build());
        assertThat(allocator.real.liveBlocks()).isEqualTo(2);
        allocator.failFrees = 1;
        try {
            assertThatThrownBy(pool::close).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pool 'free-fails'").hasMessageContaining("allocator 'failing-free'")
                    .hasRootCauseMessage("free(0x" + Long.toHexString(allocator.notFreed.get(0)[0]) + ") refused (test)");
            assertThat(allocator.real.liveBlocks()).as("the other class's chunk freed").isEqualTo(1);
            assertThat(PoolRegistry.livePools()).doesNotContain(pool);
            assertThat(pool.isFreed()).isTrue();
        } finally {
            allocator.freeTheRefused();
        }
    }

    /**
     * The same failure when the last lease comes back after close: the release that triggers the free is not at
     * fault, so it returns normally (the failure is logged), and the rest is freed and the pool unregistered.
     */
    @Test
    void shouldNotThrowFromReleaseWhenFreeingAfterTheLastLeaseFails() {
        final FailingFreeAllocator allocator = new FailingFreeAllocator();
        final BufferPool pool = BufferPool.open(small("free-fails-late").allocator(allocator).build());
        final Lease held = pool.acquire(10);
        pool.close();
        allocator.failFrees = 1;
        try {
            assertThat(held.release()).isTrue();
            assertThat(allocator.real.liveBlocks()).as("the other class's chunk freed").isEqualTo(1);
            assertThat(PoolRegistry.livePools()).doesNotContain(pool);
            assertThat(pool.isFreed()).isTrue();
        } finally {
            allocator.freeTheRefused();
        }
    }

    @Test
    void shouldSplitLargeClassIntoChunks() {
        final DirectMemoryAllocator allocator = new DirectMemoryAllocator();
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("chunks").allocator(allocator).sizeClass(1000, 10)
                .maxChunkBytes(4 * 1024).build())) {
            assertThat(allocator.liveBlocks()).as("4 slabs of stride 1024 per chunk").isEqualTo(3);
            final Lease[] all = new Lease[10];
            for (int i = 0; i < 10; i++) {
                all[i] = pool.acquire(1000);
                all[i].buffer().setMemory(0, 1000, (byte) i);
            }
            for (int i = 0; i < 10; i++) {
                assertThat(all[i].buffer().getByte(999)).isEqualTo((byte) i);
                all[i].release();
            }
        }
        assertThat(allocator.liveBlocks()).isZero();
    }
}
