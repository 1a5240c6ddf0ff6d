package org.spdl4j.engine.affinity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the calling thread may run, as the kernel reports it in {@code /proc/thread-self/status}
 * ({@code Cpus_allowed_list}): read independently of {@link ThreadAffinity}, so tests check it against the kernel.
 */
public final class CpusAllowed {
    private CpusAllowed() {
    }

    /** {@return whether this is Linux with /proc/thread-self} */
    public static boolean available() {
        return System.getProperty("os.name", "").startsWith("Linux") && Files.exists(Path.of("/proc/thread-self"));
    }

    /** {@return the calling thread's {@code Cpus_allowed_list}, e.g. "0-1"} */
    public static String ofCurrentThread() {
        return cpusAllowedList(Path.of("/proc/thread-self/status"));
    }

    /** {@return the process's {@code Cpus_allowed_list} ({@code /proc/self/status}: its thread-group leader's)} */
    public static String ofProcess() {
        return cpusAllowedList(Path.of("/proc/self/status"));
    }

    private static String cpusAllowedList(Path status) {
        try {
            return Files.readAllLines(status).stream()
                    .filter(l -> l.startsWith("Cpus_allowed_list:"))
                    .map(l -> l.substring("Cpus_allowed_list:".length()).strip())
                    .findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
