package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * The off-heap module's system properties (leak detection, its sampling interval, checked mode), each read in a fresh
 * JVM (they are read once, when {@link OffHeapConfiguration} initialises). A value that does not parse or is out of
 * range must fail naming the property, not leave the default silently in effect.
 */
@Timeout(120)
class OffHeapConfigurationPropertiesTest {
    /** Prints the description a child JVM's pool builder starts from; a configuration failure exits non-zero. */
    public static final class Probe {
        private Probe() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            PoolConfig c = PoolConfig.builder("probe").build();
            System.out.println("alignment=" + c.alignment() + " timeout=" + c.acquireTimeout().toMillis()
                    + " checked=" + c.checked() + " leaks=" + c.leakDetection() + " interval=" + c.samplingInterval()
                    + " classes=" + c.sizeClasses());
        }
    }

    private static ChildJvm.Result probe(String property) throws IOException, InterruptedException {
        return ChildJvm.run(property, Probe.class);
    }

    /** A sampling interval of 0 would track no acquire, or divide by zero: refused naming the property. */
    @Test
    void shouldFailNamingASamplingIntervalBelowOne() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.leakDetection.samplingInterval=0");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains(
                "system property spdl4j.leakDetection.samplingInterval=0 must be in [1, ");
    }

    /** {@code Boolean.parseBoolean("yes")} is false: asking for checked mode that way silently turned it off. */
    @Test
    void shouldFailNamingABooleanThatIsNeitherTrueNorFalse() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.checked=yes");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.checked='yes' is neither true nor false");
    }

    /** Already strict: {@link LeakDetectionLevel#parse} fails the initialisation naming the property. */
    @Test
    void shouldFailNamingALeakDetectionLevelThatIsNoLevel() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.leakDetection=loud");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("ExceptionInInitializerError", "unknown leak detection level 'loud'",
                "spdl4j.leakDetection", "use off, sampled or paranoid");
    }

    @Test
    void shouldTakeValidValues() throws Exception {
        ChildJvm.Result run = ChildJvm.run(List.of("-Dspdl4j.checked=TRUE", "-Dspdl4j.leakDetection=Off",
                "-Dspdl4j.leakDetection.samplingInterval= 7"), Probe.class);
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("alignment=64 timeout=30000 checked=true leaks=OFF interval=7 classes="
                + OffHeapConfiguration.SIZE_CLASSES_DEFAULT);
    }

    /** Paranoid leak detection turns checked mode on unless it is set. */
    @Test
    void shouldRunCheckedWhenParanoidUnlessToldOtherwise() throws Exception {
        assertThat(probe("-Dspdl4j.leakDetection=paranoid").output()).contains("checked=true leaks=PARANOID");
        ChildJvm.Result run = ChildJvm.run(List.of("-Dspdl4j.leakDetection=paranoid", "-Dspdl4j.checked=false"),
                Probe.class);
        assertThat(run.output()).contains("checked=false leaks=PARANOID");
    }
}
