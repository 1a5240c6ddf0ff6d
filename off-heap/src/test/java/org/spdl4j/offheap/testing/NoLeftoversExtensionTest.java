package org.spdl4j.offheap.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolConfig;

@Timeout(30)
@ExtendWith(NoLeftoversExtension.class)
class NoLeftoversExtensionTest {
    static final CountDownLatch STOP = new CountDownLatch(1);
    static BufferPool pool;
    static Lease leaked;

    /** Leaves a thread and a lease behind; run only through the launcher below (surefire skips nested classes). */
    @ExtendWith(NoLeftoversExtension.class)
    static class LeavesThingsBehind {
        @Test
        void leaveAThreadAndALease() {
            Thread.ofPlatform().name("spdl4j-planted-worker-0").daemon(true).start(() -> {
                try {
                    STOP.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            leaked = pool.acquire(64);
        }
    }

    /** Leaves a lease behind without asking for the extension: auto-detection (META-INF/services) brings it. */
    static class LeavesALeaseUnasked {
        @Test
        void leaveALease() {
            leaked = pool.acquire(64);
        }
    }

    /** Leaves a lease behind on purpose, and says so. */
    @LeftoversExpected("what this test checks: an exempt class is not failed")
    static class LeavesALeaseOnPurpose {
        @Test
        void leaveALease() {
            leaked = pool.acquire(64);
        }
    }

    /** Cleans up after itself. */
    @ExtendWith(NoLeftoversExtension.class)
    static class CleansUp {
        @Test
        void releaseEverything() throws InterruptedException {
            Thread t = Thread.ofPlatform().name("spdl4j-tidy-worker-0").start(() -> pool.acquire(64).release());
            t.join();
        }
    }

    private static TestExecutionSummary run(Class<?> testClass) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        // as the root pom's surefire configuration runs every test class
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass))
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .build(), listener);
        return listener.getSummary();
    }

    @Test
    void shouldCheckEveryClassWithoutBeingAskedAndSkipOnlyTheExemptOnes() {
        pool = BufferPool.open(PoolConfig.builder("unasked").sizeClass(64, 2).build());
        try {
            TestExecutionSummary unasked = run(LeavesALeaseUnasked.class);
            assertThat(unasked.getTotalFailureCount()).isEqualTo(1);
            assertThat(unasked.getFailures().get(0).getException().getMessage())
                    .contains("LeavesALeaseUnasked left resources behind", "pool 'unasked' short by 1 lease(s)");
            leaked.release();
            leaked = null;

            TestExecutionSummary exempt = run(LeavesALeaseOnPurpose.class);
            assertThat(exempt.getTotalFailureCount()).isZero();
            assertThat(exempt.getTestsSucceededCount()).isEqualTo(1);
        } finally {
            if (leaked != null) {
                leaked.release();
                leaked = null;
            }
            pool.close();
        }
    }

    @Test
    void shouldFailAClassThatLeavesAThreadAndALeaseNamingBoth() {
        pool = BufferPool.open(PoolConfig.builder("leftovers").sizeClass(64, 2).build());
        try {
            TestExecutionSummary summary = run(LeavesThingsBehind.class);
            assertThat(summary.getTotalFailureCount()).isEqualTo(1);
            String message = summary.getFailures().get(0).getException().getMessage();
            assertThat(message).contains("LeavesThingsBehind left resources behind", "spdl4j-planted-worker-0",
                    "pool 'leftovers' short by 1 lease(s)");
        } finally {
            STOP.countDown();
            if (leaked != null) {
                leaked.release();
            }
            pool.close();
        }
    }

    @Test
    void shouldPassAClassThatGivesEverythingBack() {
        pool = BufferPool.open(PoolConfig.builder("tidy").sizeClass(64, 2).build());
        try {
            TestExecutionSummary summary = run(CleansUp.class);
            assertThat(summary.getTotalFailureCount()).isZero();
            assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        } finally {
            pool.close();
        }
    }
}
