package org.spdl4j.engine.affinity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ThreadTimerSlackTest {

    @Test
    void shouldSetAndReadBackTheCallingThreadsSlackOnly() throws Exception {
        assumeTrue(ThreadTimerSlack.isSupported(), "64-bit Linux only");
        OptionalLong mine = ThreadTimerSlack.currentThread();
        AtomicReference<OptionalLong> set = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean accepted = new java.util.concurrent.atomic.AtomicBoolean();
        Thread t = Thread.ofPlatform().start(() -> {
            accepted.set(ThreadTimerSlack.setForCurrentThread(2_000)); // asserted below, on the test thread
            set.set(ThreadTimerSlack.currentThread());
        });
        t.join();

        assertThat(accepted).as("setForCurrentThread(2000) accepted").isTrue();
        assertThat(set.get()).hasValue(2_000);
        assertThat(ThreadTimerSlack.currentThread()).as("the test thread's own slack is untouched").isEqualTo(mine);
    }

    @Test
    void shouldRefuseASlackOfZeroWhichTheKernelReadsAsReset() {
        assertThatThrownBy(() -> ThreadTimerSlack.setForCurrentThread(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 ns");
    }
}
