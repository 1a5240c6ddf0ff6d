package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LeakDetectionTest {
    private static BufferPool pool(String name, LeakDetectionLevel level) {
        return BufferPool.open(PoolConfig.builder(name).sizeClass(128, 8).leakDetection(level).samplingInterval(1)
                .build());
    }

    private static Lease plantLeak(BufferPool pool) {
        return pool.acquire(100);
    }

    @Test
    void shouldReportPlantedLeakWithAcquisitionStack() {
        final BufferPool pool = pool("paranoid", LeakDetectionLevel.PARANOID);
        final Lease released = pool.acquire(10);
        released.release();
        final Lease leaked = plantLeak(pool);
        final List<LeakRecord> leaks = pool.outstanding();
        assertThat(leaks).hasSize(1);
        final LeakRecord leak = leaks.get(0);
        assertThat(leak.leaseId()).isEqualTo(leaked.id());
        assertThat(leak.length()).isEqualTo(100);
        assertThat(leak.site()).isNotNull();
        assertThat(leak.describe()).contains("LEAK: lease #" + leaked.id(), "pool 'paranoid'", "plantLeak",
                "shouldReportPlantedLeakWithAcquisitionStack", Thread.currentThread().getName());
        pool.close();
        assertThat(pool.isFreed()).as("memory kept while the leaked lease is out").isFalse();
        leaked.release();
        assertThat(pool.isFreed()).isTrue();
        assertThat(pool.outstanding()).isEmpty();
    }

    /** A leak report names the code a lease was last handed to, not only the library code that acquired it. */
    @Test
    void shouldNameWhereALeaseWasLastHandedOver() {
        final BufferPool pool = pool("handed", LeakDetectionLevel.PARANOID);
        final Lease leaked = plantLeak(pool);
        handToTrainingLoop(leaked);
        final String report = pool.outstanding().get(0).describe();
        assertThat(report).contains("plantLeak", "Last handed over at:", "handed to the training loop",
                "handToTrainingLoop");
        leaked.release();
        pool.close();
        final BufferPool off = pool("untracked", LeakDetectionLevel.OFF);
        final Lease untracked = off.acquire(10);
        untracked.handOver("anyone"); // untracked: nothing recorded
        assertThat(off.outstanding().get(0).handedOver()).isNull();
        untracked.release();
        off.close();
    }

    private static void handToTrainingLoop(Lease lease) {
        lease.handOver("the training loop");
    }

    @Test
    void shouldTrackSampledLeasesAtTheSamplingRate() {
        final BufferPool pool = pool("sampled", LeakDetectionLevel.SAMPLED);
        final Lease leaked = plantLeak(pool);
        assertThat(pool.outstanding().get(0).describe()).contains("plantLeak");
        leaked.release();
        pool.close();

        // One lease in 8 tracked, drawn at random: of 2,000 acquisitions about 250 carry their stack (binomial sd
        // 15; the bounds are more than 6 sd away, so this does not flake, and "always" or "never" fails it).
        final BufferPool eighth = BufferPool.open(PoolConfig.builder("sampled-8").sizeClass(128, 8)
                .leakDetection(LeakDetectionLevel.SAMPLED).samplingInterval(8).build());
        int tracked = 0;
        for (int i = 0; i < 2_000; i++) {
            final Lease lease = eighth.acquire(100);
            if (eighth.outstanding().get(0).site() != null) {
                tracked++;
            }
            lease.release();
        }
        eighth.close();
        assertThat(tracked).as("leases tracked of 2,000 at 1 in 8").isBetween(150, 350);
    }

    @Test
    void shouldReportUntrackedLeakWithHintWhenOff() {
        final BufferPool pool = pool("off", LeakDetectionLevel.OFF);
        final Lease leaked = plantLeak(pool);
        final LeakRecord leak = pool.outstanding().get(0);
        assertThat(leak.site()).isNull();
        assertThat(leak.describe()).contains("Not tracked", "-Dspdl4j.leakDetection=paranoid");
        leaked.release();
        pool.close();
        assertThat(pool.isFreed()).isTrue();
    }

    @Test
    void shouldParseLevelsAndNameTheProperty() {
        assertThat(LeakDetectionLevel.parse(" Paranoid ")).isEqualTo(LeakDetectionLevel.PARANOID);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LeakDetectionLevel.parse("loud"))
                .hasMessageContaining("spdl4j.leakDetection").hasMessageContaining("off, sampled or paranoid");
    }
}
