package org.spdl4j.offheap.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.LeakDetectionLevel;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolConfig;

class PoolLeakExtensionTest {
    static BufferPool pool;
    static Lease leaked;

    /** Run only through the launcher below (surefire skips nested classes). */
    static class PlantedLeakScenario {
        @RegisterExtension
        static PoolLeakExtension leaks = PoolLeakExtension.withGrace(Duration.ofMillis(100));

        @Test
        void leaksOneLease() {
            leaked = pool.acquire(64);
        }

        @Test
        void releasesEverything() {
            pool.acquire(64).release();
        }
    }

    private static TestExecutionSummary run(String method) {
        final SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectMethod(PlantedLeakScenario.class, method)).build(), listener);
        return listener.getSummary();
    }

    @Test
    void shouldFailTestThatLeavesPoolShortNamingAcquisitionStack() {
        pool = BufferPool.open(PoolConfig.builder("planted").sizeClass(64, 2)
                .leakDetection(LeakDetectionLevel.PARANOID).build());
        try {
            final TestExecutionSummary leaking = run("leaksOneLease");
            assertThat(leaking.getTestsFailedCount()).isEqualTo(1);
            final String message = leaking.getFailures().get(0).getException().getMessage();
            assertThat(message).contains("left buffer pools short", "pool 'planted'", "1 more lease(s)",
                    "PlantedLeakScenario.leaksOneLease");

            final TestExecutionSummary clean = run("releasesEverything");
            assertThat(clean.getTestsSucceededCount()).as("pool short before the test is not this test's leak")
                    .isEqualTo(1);
            assertThat(clean.getTestsFailedCount()).isZero();
        } finally {
            if (leaked != null) {
                leaked.release();
            }
            pool.close();
        }
    }
}
