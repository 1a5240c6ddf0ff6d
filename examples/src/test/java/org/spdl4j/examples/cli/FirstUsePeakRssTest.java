package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code spdl4j run}'s peak RSS is the run's, on first use (when it generates the built-in sample) as after. */
@Timeout(180)
class FirstUsePeakRssTest {
    private static final Pattern PEAK = Pattern.compile("peak RSS (\\d+) MiB");

    @TempDir
    Path home;

    @Test
    void shouldReportAboutTheSamePeakRssOnFirstUseAsOnTheRunAfter() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "Linux /proc");
        Assumptions.assumeTrue(Files.isWritable(Path.of("/proc/self/clear_refs")),
                "the kernel lets a process reset its peak RSS (not on gVisor, WSL1); else the run says so instead");
        double first = peakOfRunInChildJvm();
        assertThat(Files.exists(home.resolve(".cache/spdl4j/sample-64/.complete"))).as("generated on first use")
            .isTrue();
        double second = peakOfRunInChildJvm();
        assertThat(first).as("first use %s MiB, the run after %s MiB", first, second).isLessThanOrEqualTo(1.3 * second);
    }

    /** Runs {@code spdl4j run --images 64} over the built-in sample under {@link #home}; returns its peak RSS. */
    private double peakOfRunInChildJvm() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-Duser.home=" + home, "-cp", System.getProperty("java.class.path"),
            Spdl4jCommand.class.getName(), "run", "--images", "64", "--no-progress"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(output).isZero();
        Matcher m = PEAK.matcher(output);
        assertThat(m.find()).as(output).isTrue();
        assertThat(output).doesNotContain("since the JVM started");
        return Double.parseDouble(m.group(1));
    }
}
