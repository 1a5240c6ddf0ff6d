package org.spdl4j.perf.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcCountersTest {
    private static final String STATUS = """
            Name:\tspdl4j-x-p1-0
            State:\tR (running)
            Tgid:\t4242
            Threads:\t31
            Cpus_allowed_list:\t0-1
            voluntary_ctxt_switches:\t17
            nonvoluntary_ctxt_switches:\t90210
            """;

    @Test
    void shouldParseBothSwitchCountsOfAThreadStatus() {
        assertThat(ProcCounters.parseSwitches(STATUS)).containsExactly(17, 90210);
    }

    @Test
    void shouldRefuseAStatusWithoutSwitchCounts() {
        assertThatThrownBy(() -> ProcCounters.parseSwitches("Name:\tjava\nvoluntary_ctxt_switches:\t3\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no context switch counts");
    }

    @Test
    void shouldCountStatFieldsFromTheLastParenthesisSoACommandWithSpacesParses() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        String stat = "4242 (odd ) name) S 1 4242 4242 0 -1 4194560 1000 0 5 0 1234 567 0 0 20 0 31 0 99 0";
        assertThat(ProcCounters.parseCpuTicks(stat)).containsExactly(1234, 567);
    }

    @Test
    void shouldRefuseATruncatedStatLine() {
        assertThatThrownBy(() -> ProcCounters.parseCpuTicks("4242 (java) S 1 2 3"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a /proc stat line");
    }

    @Test
    void shouldSubtractPerThreadCountingNewThreadsFromZeroAndLeavingEndedOnesOut() {
        ProcCounters earlier = new ProcCounters(Map.of(1L, new long[] {10, 100}, 2L, new long[] {5, 5}), 300, 40);
        ProcCounters later = new ProcCounters(Map.of(1L, new long[] {12, 150}, 3L, new long[] {1, 7}), 500, 140);

        ProcCounters.Delta d = later.since(earlier);

        assertThat(d.voluntary()).isEqualTo(2 + 1);
        assertThat(d.involuntary()).isEqualTo(50 + 7);
        assertThat(d.switches()).isEqualTo(60);
        assertThat(d.userTicks()).isEqualTo(200);
        assertThat(d.kernelTicks()).isEqualTo(100);
        assertThat(d.kernelShare()).isEqualTo(1.0 / 3);
    }

    @Test
    void shouldSeeAThreadThatSleepsSwitchVoluntarilyOnThisMachine() throws Exception {
        assumeTrue(ProcCounters.available(), "Linux /proc only");
        ProcCounters before = ProcCounters.read();
        Thread sleeper = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 20; i++) {
                try {
                    Thread.sleep(1); // each sleep blocks: one voluntary switch at least
                } catch (InterruptedException e) {
                    return;
                }
            }
            try {
                Thread.sleep(200); // still alive at the second reading
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread.sleep(100);
        ProcCounters after = ProcCounters.read();
        sleeper.interrupt();
        sleeper.join();

        assertThat(after.since(before).voluntary()).isGreaterThanOrEqualTo(20);
    }
}
