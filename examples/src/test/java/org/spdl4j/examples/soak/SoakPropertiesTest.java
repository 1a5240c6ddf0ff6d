package org.spdl4j.examples.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * The soak's {@code spdl4j.soak.*} properties, read in a fresh JVM (once, when {@link SoakRunner} initialises). A value
 * that does not parse or is out of range must fail naming the property, not leave the default silently in effect.
 */
@Timeout(120)
class SoakPropertiesTest {
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
            System.out.println("interval=" + SoakRunner.INTERVAL + " warmUp=" + SoakRunner.WARM_UP + " maxGrowth="
                    + SoakRunner.MAX_GROWTH);
        }
    }

    private static ChildJvm.Result probe(String... properties) throws IOException, InterruptedException {
        return ChildJvm.run(List.of(properties), Probe.class);
    }

    @Test
    void shouldTakeValidValues() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.soak.intervalSeconds=2", "-Dspdl4j.soak.warmUpSeconds=30",
                "-Dspdl4j.soak.maxGrowthPercent=2.5");
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("interval=PT2S warmUp=PT30S maxGrowth=2.5");
    }

    /** {@code Long.getLong} sampled every 10 s for "2s": the typo went unnoticed. */
    @Test
    void shouldFailNamingSecondsThatAreNotANumber() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.soak.intervalSeconds=2s");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.soak.intervalSeconds='2s' is not an integer");
    }

    /**
     * A warm-up of 0 was taken: growth was then measured from the sample at 0 s, before the first epoch had loaded a
     * class or filled a pool, which is no steady state.
     */
    @Test
    void shouldFailNamingAWarmUpThatIsNotPositive() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.soak.warmUpSeconds=0");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.soak.warmUpSeconds=0 must be in [1, ");
    }

    /** {@code Double.parseDouble} failed with "For input string: \"5%\"", naming no property. */
    @Test
    void shouldFailNamingAPassMarkThatIsNotANumber() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.soak.maxGrowthPercent=5%");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.soak.maxGrowthPercent='5%' is not a number");
    }
}
