package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * The CUDA staging's system properties, each read in a fresh JVM: garbage must fail naming the property instead of
 * leaving the default silently in effect ({@code Integer.getInteger}, {@code Boolean.getBoolean} did that).
 */
@Timeout(120)
class CudaConfigurationPropertiesTest {
    /** Prints the settings a child JVM sees; an initialisation failure escapes and exits non-zero. */
    public static final class Probe {
        private Probe() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            System.out.println("inFlight=" + CudaConfiguration.IN_FLIGHT + " map=" + CudaConfiguration.PINNED_DEVICE_MAP
                    + " mode=" + CudaConfiguration.MODE);
        }
    }

    @Test
    void shouldFailNamingACopyCountThatIsNotANumberOrBelowOne() throws Exception {
        ChildJvm.Result garbage = ChildJvm.run("-Dspdl4j.cuda.inFlight=four", Probe.class);
        assertThat(garbage.exit()).as(garbage.output()).isNotZero();
        assertThat(garbage.output()).contains("spdl4j.cuda.inFlight='four' is not an integer");

        ChildJvm.Result zero = ChildJvm.run("-Dspdl4j.cuda.inFlight=0", Probe.class);
        assertThat(zero.exit()).as(zero.output()).isNotZero();
        assertThat(zero.output()).contains("spdl4j.cuda.inFlight=0 must be in [1, ");
    }

    @Test
    void shouldFailNamingABooleanThatIsNeitherTrueNorFalse() throws Exception {
        ChildJvm.Result run = ChildJvm.run("-D" + CudaConfiguration.PINNED_DEVICE_MAP_PROP + "=yes", Probe.class);
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains(CudaConfiguration.PINNED_DEVICE_MAP_PROP);

    }

    /**
     * A mode that is none of auto, cuda and host was taken when the class initialised and refused only when
     * {@link DeviceDiscovery#open()} ran, if it ran at all.
     */
    @Test
    void shouldFailNamingAModeThatIsNoMode() throws Exception {
        ChildJvm.Result run = ChildJvm.run("-D" + CudaConfiguration.MODE_PROP + "=gpu", Probe.class);
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("ExceptionInInitializerError",
                "system property spdl4j.cuda.mode='gpu' is none of [AUTO, CUDA, HOST]");
    }

    @Test
    void shouldTakeValidValues() throws Exception {
        ChildJvm.Result run = ChildJvm.run(List.of("-D" + CudaConfiguration.PINNED_DEVICE_MAP_PROP + "=TRUE",
                "-D" + CudaConfiguration.MODE_PROP + "= Host", "-D" + CudaConfiguration.IN_FLIGHT_PROP + "=2"),
                Probe.class);
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("inFlight=2 map=true mode=host");
    }
}
