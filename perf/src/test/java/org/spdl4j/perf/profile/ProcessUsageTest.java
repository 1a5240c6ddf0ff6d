package org.spdl4j.perf.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class ProcessUsageTest {

    @Test
    void shouldDecodeTheSwitchCountsAndTimesOfAStructRusage() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment usage = arena.allocate(ProcessUsage.RUSAGE_BYTES, 8);
            for (long off = 0; off < ProcessUsage.RUSAGE_BYTES; off += 8) {
                usage.set(ValueLayout.JAVA_LONG, off, 999_999); // every other field: noise that must not be read
            }
            usage.set(ValueLayout.JAVA_LONG, 0, 3);          // ru_utime.tv_sec
            usage.set(ValueLayout.JAVA_LONG, 8, 250_000);    // ru_utime.tv_usec
            usage.set(ValueLayout.JAVA_LONG, 16, 1);         // ru_stime.tv_sec
            usage.set(ValueLayout.JAVA_LONG, 24, 5);         // ru_stime.tv_usec
            usage.set(ValueLayout.JAVA_LONG, 128, 17);       // ru_nvcsw
            usage.set(ValueLayout.JAVA_LONG, 136, 90_210);   // ru_nivcsw

            ProcessUsage u = ProcessUsage.of(usage);

            assertThat(u).isEqualTo(new ProcessUsage(17, 90_210, 3_250_000, 1_000_005));
        }
    }

    @Test
    void shouldSubtractAnEarlierReadingAndShareTheCpuTime() {
        ProcessUsage d = new ProcessUsage(12, 150, 500, 140).since(new ProcessUsage(10, 100, 300, 40));

        assertThat(d).isEqualTo(new ProcessUsage(2, 50, 200, 100));
        assertThat(d.switches()).isEqualTo(52);
        assertThat(d.kernelShare()).isEqualTo(1.0 / 3);
        assertThat(new ProcessUsage(0, 0, 0, 0).kernelShare()).isZero();
    }

    @Test
    void shouldKeepTheSwitchesOfAThreadThatHasEndedAndCountCpuTime() throws Exception {
        assumeTrue(ProcessUsage.available(), "64-bit Linux only");
        ProcessUsage before = ProcessUsage.read();
        Thread sleeper = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 20; i++) {
                try {
                    Thread.sleep(1); // each sleep blocks: one voluntary switch at least
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sleeper.join(); // gone before the second reading: a per-thread reading would have lost its switches
        // Spin until this thread has had 50 ms of CPU by its own clock (not 50 ms of wall time, which a loaded
        // machine may give it only part of).
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuUntil = threads.getCurrentThreadCpuTime() + 50_000_000L;
        long spins = 0;
        while (threads.getCurrentThreadCpuTime() < cpuUntil) {
            spins++;
        }
        ProcessUsage d = ProcessUsage.read().since(before);

        assertThat(d.voluntary()).as("voluntary switches, the ended sleeper's included").isGreaterThanOrEqualTo(20);
        assertThat(d.userMicros() + d.kernelMicros()).as("CPU time over %d spins", spins)
                .isGreaterThanOrEqualTo(40_000);
    }
}
