package org.spdl4j.engine.stats;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads this process's CPU time and resident memory (Linux {@code /proc/self/status}), for run summaries, soaks and
 * benchmarks. Each call reads {@code /proc} and allocates: not for a hot path.
 */
public final class ProcessMetrics {
    private ProcessMetrics() {
    }

    /** {@return CPU seconds this process has used, all threads, user + system} */
    public static double cpuSeconds() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime() / 1e9;
        }
        return Double.NaN;
    }

    /** {@return peak resident set size (VmHWM) in MiB, or NaN when /proc is not there} */
    public static double peakRssMiB() {
        return statusKib("VmHWM:") / 1024.0;
    }

    /** {@return current resident set size (VmRSS) in MiB, or NaN when /proc is not there} */
    public static double rssMiB() {
        return statusKib("VmRSS:") / 1024.0;
    }

    private static double statusKib(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(key)) {
                    return Double.parseDouble(line.substring(key.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }
}
