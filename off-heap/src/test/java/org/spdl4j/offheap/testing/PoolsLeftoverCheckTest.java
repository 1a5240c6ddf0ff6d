package org.spdl4j.offheap.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolConfig;

class PoolsLeftoverCheckTest {
    /** A class that releases a lease held before it and leaks a new one leaves the pool short, though not by count. */
    @Test
    void shouldReportANewLeaseLeakedWhileALeaseHeldBeforeWasReleased() {
        final BufferPool pool = BufferPool.open(PoolConfig.builder("swap-class").sizeClass(64, 2).build());
        Lease before = pool.acquire(64);
        Lease leaked = null;
        try {
            final PoolsLeftoverCheck check = new PoolsLeftoverCheck();
            check.before();
            before.release();
            before = null;
            leaked = pool.acquire(64);
            assertThat(check.leftovers()).isNotNull().contains("pool 'swap-class' short by 1 lease(s)")
                    .contains("LEAK: lease #" + leaked.id() + " ");
            leaked.release();
            leaked = null;
            assertThat(check.leftovers()).as("nothing left once the new lease is back").isNull();
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
}
