package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * The media limits' system properties, each read in a fresh JVM (they are read once, when
 * {@link MediaConfiguration} initialises). A value that does not parse or is out of range must fail naming the
 * property, not leave the default silently in effect.
 */
@Timeout(120)
class MediaConfigurationPropertiesTest {
    /** Prints the default limits a child JVM sees; a configuration failure exits non-zero. */
    public static final class Probe {
        private Probe() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            System.out.println("limits=" + MediaLimits.DEFAULT + " lowres=" + MediaConfiguration.LOWRES_ENABLED);
        }
    }

    private static ChildJvm.Result probe(String property) throws IOException, InterruptedException {
        return ChildJvm.run(property, Probe.class);
    }

    /**
     * {@code Long.getLong} fell back to 256 MiB for "512m": the limit a user raised stayed where it was, and the
     * inputs it was raised for were still refused with "raise spdl4j.media.maxInputBytes".
     */
    @Test
    void shouldFailNamingALimitThatIsNotANumber() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.maxInputBytes=512m");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.media.maxInputBytes='512m' is not an integer");
    }

    /** A limit of 0 failed in MediaLimits ("limits must be positive: ..."), naming no property. */
    @Test
    void shouldFailNamingALimitThatIsNotPositive() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.maxFrames=0");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.media.maxFrames=0 must be in [1, ");
    }

    @Test
    void shouldTakeValidValues() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.media.maxFrames=7");
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("maxFrames=7", "lowres=true");
    }
}
