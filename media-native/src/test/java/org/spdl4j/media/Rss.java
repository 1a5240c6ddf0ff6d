package org.spdl4j.media;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Resident set size of this process, from /proc/self/status (Linux). */
final class Rss {
    private Rss() {
    }

    static long kib() throws IOException {
        for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }
}
