package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.testing.PoolLeakExtension;

/**
 * Many threads acquire and release leases of random sizes from small classes (so classes run empty and acquirers
 * wait). Each thread holds up to two leases and frees a slot before refilling it: while all threads wait they hold
 * at most {@code THREADS} leases, fewer than any class's {@code SLABS}, so the test cannot deadlock. Each acquirer claims the lease id in a shared owner table and stamps an owner token into the first and last
 * 8 bytes; a lease handed out twice, or two leases sharing memory, shows up as a failed claim or a changed token.
 */
@ExtendWith(PoolLeakExtension.class)
class BufferPoolStressTest {
    private static final int THREADS = 8;
    private static final int SLABS = THREADS + 1;
    private static final int[] SIZES = {16, 64, 1000, 1024, 4000, 16 * 1024};

    @Test
    @Timeout(120)
    void shouldNeverLoseOrDoubleHandOutLeasesUnderContention() throws Exception {
        run(1_000_000, LeakDetectionLevel.OFF); // 8 x 1M: about 2 s on two loaded cores
    }

    @Test
    @Timeout(120)
    void shouldStayConsistentWithParanoidTracking() throws Exception {
        run(10_000, LeakDetectionLevel.PARANOID);
    }

    @Test
    @Tag("long")
    @Timeout(600)
    void shouldNeverLoseOrDoubleHandOutLeasesOverEightyMillionOps() throws Exception {
        run(10_000_000, LeakDetectionLevel.OFF);
    }

    private static void run(int opsPerThread, LeakDetectionLevel level) throws Exception {
        final PoolConfig config = PoolConfig.builder("stress").sizeClass(64, SLABS).sizeClass(1024, SLABS)
                .sizeClass(4096, SLABS).sizeClass(16 * 1024, SLABS).leakDetection(level).checked(true)
                .acquireTimeout(Duration.ofSeconds(30)).build();
        try (BufferPool pool = BufferPool.open(config)) {
            final int total = 4 * SLABS;
            final AtomicIntegerArray owners = new AtomicIntegerArray(total);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final CountDownLatch start = new CountDownLatch(1);
            final Thread[] threads = new Thread[THREADS];
            for (int t = 0; t < THREADS; t++) {
                final int me = t + 1;
                threads[t] = new Thread(() -> {
                    try {
                        start.await();
                        hammer(pool, owners, me, opsPerThread);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "stress-" + me);
                threads[t].start();
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("stress thread failed", failure.get());
            }
            assertThat(pool.inUse()).as("pool full at the end").isZero();
            final PoolStats stats = pool.stats();
            assertThat(stats.classes()).allSatisfy(c -> assertThat(c.highWater()).isBetween(2, c.capacity()));
            final Set<Lease> all = Collections.newSetFromMap(new IdentityHashMap<>());
            Lease l;
            for (int size : new int[] {64, 1024, 4096, 16 * 1024}) {
                while ((l = pool.tryAcquire(size)) != null) {
                    assertThat(all.add(l)).as("free list holds a lease twice").isTrue();
                }
            }
            assertThat(all).hasSize(total);
            all.forEach(Lease::release);
        }
    }

    private static void hammer(BufferPool pool, AtomicIntegerArray owners, int me, int ops) {
        final SplittableRandom random = new SplittableRandom(me);
        final Lease[] held = new Lease[2];
        final long[] tokens = new long[2];
        for (int i = 0; i < ops; i++) {
            final int k = random.nextInt(held.length);
            if (held[k] != null) {
                verifyAndRelease(held[k], tokens[k], owners, me);
                held[k] = null;
            }
            final Lease lease = pool.acquire(SIZES[random.nextInt(SIZES.length)]);
            final int previous = owners.compareAndExchange(lease.id(), 0, me);
            if (previous != 0) {
                throw new AssertionError(lease + " handed to thread " + me + " while thread " + previous + " holds it");
            }
            final long token = ((long) me << 32) | i;
            final UnsafeBuffer b = lease.buffer();
            b.putLong(0, token);
            b.putLong(lease.capacity() - 8, token);
            held[k] = lease;
            tokens[k] = token;
        }
        for (int k = 0; k < held.length; k++) {
            if (held[k] != null) {
                verifyAndRelease(held[k], tokens[k], owners, me);
            }
        }
    }

    private static void verifyAndRelease(Lease lease, long token, AtomicIntegerArray owners, int me) {
        final UnsafeBuffer b = lease.buffer();
        if (b.getLong(0) != token || b.getLong(lease.capacity() - 8) != token) {
            throw new AssertionError(lease + " bytes overwritten while held by thread " + me + ": another owner");
        }
        if (!owners.compareAndSet(lease.id(), me, 0)) {
            throw new AssertionError(lease + " owner table changed while held by thread " + me);
        }
        lease.release();
    }
}
