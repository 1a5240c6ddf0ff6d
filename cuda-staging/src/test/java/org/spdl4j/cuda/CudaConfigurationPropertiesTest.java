package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * The CUDA staging's system properties, {@value CudaConfiguration#MODE_PROP} and
 * {@value CudaConfiguration#DEVICE_PROP}, each read in a fresh JVM: garbage must fail naming the property instead of
 * leaving the default silently in effect ({@code Integer.getInteger} did that).
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
            System.out.println("device=" + CudaConfiguration.DEVICE + " mode=" + CudaConfiguration.MODE);
        }
    }

    @Test
    void shouldFailNamingADeviceOrdinalThatIsNotANumberOrNegative() throws Exception {
        ChildJvm.Result garbage = ChildJvm.run("-Dspdl4j.cuda.device=first", Probe.class);
        assertThat(garbage.exit()).as(garbage.output()).isNotZero();
        assertThat(garbage.output()).contains("spdl4j.cuda.device='first' is not an integer");

        ChildJvm.Result negative = ChildJvm.run("-Dspdl4j.cuda.device=-1", Probe.class);
        assertThat(negative.exit()).as(negative.output()).isNotZero();
        assertThat(negative.output()).contains("spdl4j.cuda.device=-1 must be in [0, ");
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
        ChildJvm.Result run = ChildJvm.run(List.of("-D" + CudaConfiguration.MODE_PROP + "= Host",
                "-D" + CudaConfiguration.DEVICE_PROP + "=2"), Probe.class);
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("device=2 mode=host");
    }
}
