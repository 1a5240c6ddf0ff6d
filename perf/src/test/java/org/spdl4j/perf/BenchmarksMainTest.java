package org.spdl4j.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** JMH's forks get spdl4j's flags exactly when the benchmarks' JVM was started without them. */
class BenchmarksMainTest {
    private static final String FLAGS = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED --enable-native-access=ALL-UNNAMED";

    @Test
    void shouldPrependTheFlagsForForksWhenThisJvmHasNone() {
        assertThat(BenchmarksMain.withForkFlags(new String[] {"-l"}, List.of("-Xmx1g"), FLAGS))
                .containsExactly("-jvmArgsPrepend", FLAGS, "-l");
    }

    @Test
    void shouldLeaveTheArgumentsAloneWhenThisJvmWasStartedWithTheFlags() {
        assertThat(BenchmarksMain.withForkFlags(new String[] {"-l"},
                List.of("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"), FLAGS)).containsExactly("-l");
    }

    @Test
    void shouldLeaveTheArgumentsAloneOutsideTheJar() {
        assertThat(BenchmarksMain.withForkFlags(new String[] {"-l"}, List.of(), "")).containsExactly("-l");
    }
}
