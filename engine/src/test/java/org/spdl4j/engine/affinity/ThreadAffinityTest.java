package org.spdl4j.engine.affinity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pins fresh threads only: a pinned JUnit thread would pass its affinity on to every thread it starts later. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ThreadAffinityTest {
    /** A CPU this process may use (CPU 0 is not in every container's or taskset's mask). */
    private static final int CPU = org.spdl4j.engine.affinity.ThreadAffinity.processCpus()
            .map(set -> set.toArray()[0]).orElse(0);
    private static final String CPU_NAME = Integer.toString(CPU);


    @BeforeEach
    void onLinux() {
        assumeTrue(CpusAllowed.available(), "thread affinity is Linux only");
    }

    private static <T> T onFreshThread(Callable<T> body) throws Exception {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                result.set(body.call());
            } catch (Exception e) {
                failure.set(e);
            }
        });
        t.join();
        if (failure.get() != null) {
            throw failure.get();
        }
        return result.get();
    }

    @Test
    void shouldPinTheCallingThreadAsTheKernelReportsIt() throws Exception {
        assertThat(ThreadAffinity.isSupported()).isTrue();
        String[] seen = onFreshThread(() -> {
            ThreadAffinity.pinCurrentThread(CpuSet.of(CPU));
            return new String[] {CpusAllowed.ofCurrentThread(), ThreadAffinity.currentThreadCpus().orElseThrow()
                    .toString()};
        });
        assertThat(seen).containsExactly(CPU_NAME, CPU_NAME);
    }

    @Test
    void shouldReadTheSameCpusAsTheKernelReports() throws Exception {
        String[] seen = onFreshThread(() -> new String[] {CpusAllowed.ofCurrentThread(),
                ThreadAffinity.currentThreadCpus().orElseThrow().toString()});
        assertThat(seen[1]).isEqualTo(seen[0]);
    }

    @Test
    void shouldReadTheProcessCpusAsTheKernelReportsThemWhateverTheCallingThreadIsPinnedTo() throws Exception {
        CpuSet process = ThreadAffinity.processCpus().orElseThrow();
        assertThat(process).hasToString(CpusAllowed.ofProcess());
        int first = process.toArray()[0];
        String[] seen = onFreshThread(() -> {
            ThreadAffinity.pinCurrentThread(CpuSet.of(first));
            return new String[] {CpusAllowed.ofCurrentThread(), ThreadAffinity.processCpus().orElseThrow().toString()};
        });
        assertThat(seen).containsExactly(String.valueOf(first), process.toString());
        assertThat(ThreadAffinity.problemWith(process)).isEmpty();
    }

    @Test
    void shouldReportTheKernelsRefusalWithErrnoTextAndLeaveTheThreadAsItWas() throws Exception {
        String before = CpusAllowed.ofCurrentThread();
        Object[] seen = onFreshThread(() -> {
            try {
                ThreadAffinity.pinCurrentThread(CpuSet.of(CpuSet.MAX_CPU)); // no machine here has CPU 8191 online
                return new Object[] {null, CpusAllowed.ofCurrentThread()};
            } catch (AffinityException e) {
                return new Object[] {e, CpusAllowed.ofCurrentThread()};
            }
        });
        AffinityException refused = (AffinityException) seen[0];
        assertThat(refused).isNotNull();
        assertThat(refused.errno()).isEqualTo(22);
        assertThat(refused.getMessage()).contains("sched_setaffinity(8191) failed", "Invalid argument",
                "(errno 22)");
        assertThat(seen[1]).isEqualTo(before);
    }

    @Test
    void shouldRefuseAnEmptySetWithoutCallingTheKernel() {
        assertThatThrownBy(() -> ThreadAffinity.pinCurrentThread(CpuSet.of()))
                .isInstanceOf(AffinityException.class).hasMessageContaining("empty CPU set");
    }
}
