package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without a UTF-8 locale the JVM cannot decode a non-ASCII file name: a folder scan skips that file with a warning
 * saying how to read it, instead of failing the whole dataset.
 */
class FolderNameCharsetTest {
    @TempDir
    Path dir;

    /** Scans the folder in {@code args[0]} and prints the number of files found. */
    public static final class Scan {
        private Scan() {
        }

        /**
         * Scans.
         *
         * @param args the folder
         */
        public static void main(String[] args) {
            System.out.println("files=" + FolderDataset.scan(Path.of(args[0]), Set.of("jpg")).size());
        }
    }

    @Test
    void shouldSkipANameTheJvmCannotDecodeAndScanTheRest() throws Exception {
        Path cls = Files.createDirectories(dir.resolve("c0"));
        Files.writeString(cls.resolve("a.jpg"), "x");
        Files.writeString(cls.resolve("b.jpg"), "x");
        Files.writeString(cls.resolve("caf\u00e9.jpg"), "x"); // written by this (UTF-8) JVM
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(a -> !a.startsWith("-agentlib") && !a.startsWith("-javaagent")).toList());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Scan.class.getName(), dir.toString()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove("LANG");
        pb.environment().remove("LC_CTYPE");
        pb.environment().put("LC_ALL", "C"); // ASCII file names
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("files=2").contains("cannot be decoded").contains("LC_ALL=C.UTF-8");
    }
}
