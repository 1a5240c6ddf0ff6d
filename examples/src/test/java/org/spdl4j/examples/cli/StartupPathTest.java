package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * What a run must not do on its way to the first batch, checked in a fresh JVM: initialise JFR when no recording was
 * asked for (its first event object costs about 70 ms of CPU), while a run under a recording still records.
 */
@Timeout(120)
class StartupPathTest {
    @TempDir
    Path dir;

    @Test
    void shouldNotInitialiseJfrInARunWithoutARecording() throws Exception {
        Path data = dir.resolve("data");
        SampleImages.ensure(data, 48);
        String args = String.join("\u001f", "run", "--data", data.toString(), "--epochs", "2", "--no-progress",
            "--interval-ms", "50");
        // The JVM's class initialisation log tells whether JFR's internals were set up.
        ChildJvm.Result plain = ChildJvm.run(List.of("-Dspdl4j.cli.args=" + args, "-Xlog:class+init=info:stdout"),
            CliChild.class);
        assertThat(plain.exit()).as(plain.output()).isZero();
        assertThat(plain.output()).contains("throughput: 96 images")
            .contains("Initializing 'org/spdl4j/examples/cli/StatsSampler") // the log works: the sampler ran
            .doesNotContain("Initializing 'jdk/jfr/internal/MetadataRepository")
            .doesNotContain("Initializing 'org/spdl4j/engine/stats/StageStatsEvent")
            .doesNotContain("Initializing 'org/spdl4j/examples/report/TaskEvent");

        Path jfr = dir.resolve("run.jfr");
        ChildJvm.Result recorded = ChildJvm.run(List.of("-Dspdl4j.cli.args=" + args,
            "-XX:StartFlightRecording=filename=" + jfr + ",settings=profile"), CliChild.class);
        assertThat(recorded.exit()).as(recorded.output()).isZero();
        try (jdk.jfr.consumer.RecordingFile file = new jdk.jfr.consumer.RecordingFile(jfr)) {
            boolean stageStats = false;
            boolean tasks = false;
            while (file.hasMoreEvents()) {
                String name = file.readEvent().getEventType().getName();
                stageStats |= name.equals("org.spdl4j.StageStats");
                tasks |= name.startsWith("org.spdl4j") && !name.equals("org.spdl4j.StageStats");
            }
            assertThat(stageStats).as("stage stats events under a recording").isTrue();
            assertThat(tasks).as("decode task events under a recording").isTrue();
        }
    }
}
