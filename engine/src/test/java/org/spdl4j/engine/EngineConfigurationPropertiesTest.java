package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.stats.StatsConfiguration;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * The engine's system properties, each read in a fresh JVM (they are read once, when {@link EngineConfiguration}
 * initialises). A value that does not parse or is out of range must fail naming the property, not leave the default
 * silently in effect or fail later with a message that names no property.
 */
@Timeout(120)
class EngineConfigurationPropertiesTest {
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
            System.out.println("ring=" + EngineConfiguration.DEFAULT_RING_CAPACITY + " wait="
                    + EngineConfiguration.DEFAULT_WAIT_POLICY + " close=" + EngineConfiguration.CLOSE_TIMEOUT_MILLIS
                    + " digits=" + StatsConfiguration.SIGNIFICANT_DIGITS
                    + " busy=" + StatsConfiguration.BOTTLENECK_BUSY_PERCENT);
        }
    }

    private static ChildJvm.Result probe(String property) throws IOException, InterruptedException {
        return ChildJvm.run(property, Probe.class);
    }

    /** {@code Integer.getInteger} fell back to 1024 for "4k": the typo went unnoticed, the default ran. */
    @Test
    void shouldFailNamingAPropertyThatIsNotANumber() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.ringCapacity=4k");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.ringCapacity='4k' is not an integer");
    }

    /**
     * A capacity that is not a power of two was taken, and then every pipeline failed validation with "stage 'x':
     * ring capacity 1000 must be a power of two" for a stage whose capacity the user never set.
     */
    @Test
    void shouldFailNamingACapacityThatIsNotAPowerOfTwo() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.ringCapacity=1000");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.ringCapacity=1000 must be a power of two");
    }

    /** A negative close timeout was taken: close() then never waited for its threads and skipped its sweep. */
    @Test
    void shouldFailNamingANegativeCloseTimeout() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.closeTimeoutMillis=-1");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.closeTimeoutMillis=-1 must be in [0, ");
    }

    /**
     * {@code -Dspdl4j.waitPolicy=blocking} failed with "No enum constant org.spdl4j.engine.WaitPolicy.blocking",
     * naming no property, where the off-heap module's enum properties are read ignoring case.
     */
    @Test
    void shouldReadAWaitPolicyIgnoringCase() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.waitPolicy=blocking");
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("wait=BLOCKING");
    }

    @Test
    void shouldFailNamingAnUnknownWaitPolicyAndTheAcceptedOnes() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.waitPolicy=sleepy");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.waitPolicy='sleepy' is none of [BUSY_SPIN, "
                + "YIELDING, BACKOFF, BLOCKING]");
    }

    @Test
    void shouldKeepTheDefaultsWhenNothingIsSet() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.unrelated=1");
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("ring=1024 wait=BACKOFF close=1500 digits=2");
    }

    /** A bottleneck threshold of 150 % or NaN was taken silently: no stage could ever be named the bottleneck. */
    @Test
    void shouldFailNamingABottleneckPercentageOutOfRange() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.stats.bottleneckBusyPercent=150");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.stats.bottleneckBusyPercent=150");
        assertThat(probe("-Dspdl4j.stats.bottleneckBusyPercent=70").output()).contains("busy=70.0");
    }

    /**
     * A precision HdrHistogram does not support was taken, and then every pipeline's build failed in HdrHistogram
     * ("numberOfSignificantValueDigits must be between 0 and 5"), naming no property.
     */
    @Test
    void shouldFailNamingAStatsPrecisionOutOfRange() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.stats.significantDigits=6");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.stats.significantDigits=6 must be in [0, 5]");
    }

    /** Prints the HTTP fetcher's defaults a child JVM sees. */
    public static final class HttpProbe {
        private HttpProbe() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            System.out.println("inFlight=" + org.spdl4j.engine.source.http.HttpFetchSettings.DEFAULT_MAX_IN_FLIGHT);
        }
    }

    /** {@code Integer.getInteger} kept 64 requests in flight for "128k": the typo went unnoticed. */
    @Test
    void shouldFailNamingAnHttpPropertyThatIsNotANumber() throws Exception {
        ChildJvm.Result run = ChildJvm.run("-Dspdl4j.http.maxInFlight=128k", HttpProbe.class);
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("spdl4j.http.maxInFlight='128k' is not an integer");
        assertThat(ChildJvm.run("-Dspdl4j.http.maxInFlight=128", HttpProbe.class).output()).contains("inFlight=128");
    }
}
