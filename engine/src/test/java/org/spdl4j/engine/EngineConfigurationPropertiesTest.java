package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * The engine's one system property, {@value EngineConfiguration#WAIT_POLICY_PROP}, read in a fresh JVM (it is read
 * once, when {@link EngineConfiguration} initialises). A value that is no policy must fail naming the property and
 * the policies, not leave the default silently in effect or fail later with a message that names no property.
 */
@Timeout(120)
class EngineConfigurationPropertiesTest {
    /** Prints the wait policy a child JVM's stages get; an initialisation failure escapes and exits non-zero. */
    public static final class Probe {
        private Probe() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            System.out.println("wait=" + StageOptions.defaults().waitPolicy());
        }
    }

    private static ChildJvm.Result probe(String property) throws IOException, InterruptedException {
        return ChildJvm.run(property, Probe.class);
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
    void shouldKeepTheDefaultWhenNothingIsSet() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.unrelated=1");
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("wait=BACKOFF");
    }
}
