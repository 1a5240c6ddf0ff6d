package org.spdl4j.offheap.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.LeakDetectionLevel;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolConfig;

class PoolLeakCheckTest {
    private static BufferPool open(String name, int slabs) {
        return BufferPool.open(PoolConfig.builder(name).sizeClass(64, slabs).leakDetection(LeakDetectionLevel.PARANOID)
                .build());
    }

    /** Same count before and after, but the lease held now is not the one held before: a leak. */
    @Test
    void shouldReportANewLeaseLeakedWhileALeaseHeldBeforeWasReleased() {
        final BufferPool pool = open("swap", 2);
        Lease before = pool.acquire(64);
        Lease leaked = null;
        try {
            final PoolLeakCheck check = PoolLeakCheck.snapshot();
            before.release();
            before = null;
            leaked = pool.acquire(64);
            assertThat(pool.inUse()).as("the count alone looks clean").isEqualTo(1);
            final int leakedId = leaked.id();
            assertThatThrownBy(() -> check.assertNoLeaks(Duration.ofMillis(50), "the swap"))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("pool 'swap': 1 more lease(s) held that were not held before")
                    .hasMessageContaining("LEAK: lease #" + leakedId + " ")
                    .hasMessageContaining("shouldReportANewLeaseLeakedWhileALeaseHeldBeforeWasReleased");
        } finally {
            if (before != null) {
                before.release();
            }
            if (leaked != null) {
                leaked.release();
            }
            pool.close();
        }
    }

    /** The very slab held before, released and acquired again since: a new hold (its acquisition site tells). */
    @Test
    void shouldReportTheSameSlabReleasedAndAcquiredAgainSinceTheSnapshot() {
        final BufferPool pool = open("again", 1);
        Lease lease = pool.acquire(64);
        try {
            final PoolLeakCheck check = PoolLeakCheck.snapshot();
            lease.release();
            lease = pool.acquire(64); // the pool's only slab: same id
            assertThatThrownBy(() -> check.assertNoLeaks(Duration.ofMillis(50), "the re-acquire"))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("pool 'again': 1 more lease(s)");
        } finally {
            lease.release();
            pool.close();
        }
    }

    /** A lease held before and still held is not this code's leak. */
    @Test
    void shouldPassWhenOnlyLeasesHeldBeforeAreStillHeld() {
        final BufferPool pool = open("kept", 2);
        final Lease before = pool.acquire(64);
        try {
            final PoolLeakCheck check = PoolLeakCheck.snapshot();
            pool.acquire(64).release();
            check.assertNoLeaks(Duration.ofMillis(50), "a clean run");
        } finally {
            before.release();
            pool.close();
        }
    }
}
