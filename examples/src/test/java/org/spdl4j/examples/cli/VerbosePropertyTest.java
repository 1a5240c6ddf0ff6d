package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * {@code spdl4j.verbose}, set in a fresh JVM (a property set here would reach every test sharing this JVM): true or
 * false in any case; another value is a bad argument naming the property, not the silent false of
 * {@link Boolean#getBoolean}.
 */
@Timeout(120)
class VerbosePropertyTest {
    /** Runs a command that fails (every listed image is missing) and exits with its status. */
    public static final class Probe {
        private Probe() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         * @throws IOException when the list of images cannot be written
         */
        public static void main(String[] args) throws IOException {
            Path list = Files.createTempFile("spdl4j-verbose", ".txt");
            list.toFile().deleteOnExit();
            Files.writeString(list, "gone/a.jpg\n");
            System.exit(Spdl4jCommand.execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true),
                    "run", "--data", list.toString(), "--no-progress"));
        }
    }

    /** {@code Boolean.getBoolean} read "yes" as false: the stack trace asked for never came, and nothing said why. */
    @Test
    void shouldRefuseAValueThatIsNeitherTrueNorFalseNamingTheProperty() throws Exception {
        ChildJvm.Result run = ChildJvm.run("-Dspdl4j.verbose=yes", Probe.class);
        assertThat(run.exit()).as(run.output()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(run.output()).contains("spdl4j: system property spdl4j.verbose='yes' is neither true nor false")
                .doesNotContain("\tat ", "run failed");
    }

    @Test
    void shouldPrintTheStackTraceOfAFailedRunWhenTrueInAnyCase() throws Exception {
        ChildJvm.Result run = ChildJvm.run("-Dspdl4j.verbose=TRUE", Probe.class);
        assertThat(run.exit()).as(run.output()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
        assertThat(run.output()).contains("spdl4j: run failed: ", "\tat ");
    }
}
