package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;

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
            System.out.println("inFlight=" + CudaConfiguration.IN_FLIGHT + " map=" + CudaConfiguration.PINNED_DEVICE_MAP);
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

        assertThat(ChildJvm.run("-D" + CudaConfiguration.PINNED_DEVICE_MAP_PROP + "=TRUE", Probe.class).output())
                .contains("map=true");
    }
}
