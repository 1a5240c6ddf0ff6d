package org.spdl4j.perf;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The main class of {@code perf/target/benchmarks.jar}: JMH's own {@link org.openjdk.jmh.Main}, except that the forks
 * get spdl4j's JVM flags when this JVM has none. {@code java -jar benchmarks.jar} takes the export and the native
 * access it needs from the jar's manifest ({@code Add-Exports}, {@code Enable-Native-Access}), but JMH starts each fork
 * with {@code -cp} and this JVM's command-line options, so a fork would have neither. The flags come from the
 * manifest's {@value #FLAGS_ATTRIBUTE} entry (the root pom's {@code spdl4j.jvm.flags}); a JVM started with
 * {@code --add-exports} ({@code bin/spdl4j-java -jar ...}) hands its own options down as before.
 */
public final class BenchmarksMain {
    /** The manifest entry with spdl4j's JVM flags, written by the shade plugin. */
    public static final String FLAGS_ATTRIBUTE = "Spdl4j-Jvm-Flags";

    private BenchmarksMain() {
    }

    /**
     * Runs JMH.
     *
     * @param args JMH's command line
     * @throws Exception what JMH throws
     */
    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(withForkFlags(args, ManagementFactory.getRuntimeMXBean().getInputArguments(),
                manifestFlags()));
    }

    /**
     * JMH's arguments, with {@code -jvmArgsPrepend flags} in front when this JVM was started without
     * {@code --add-exports}.
     *
     * @param args           JMH's command line
     * @param inputArguments this JVM's options
     * @param flags          spdl4j's JVM flags, or an empty string when unknown (not run from the jar)
     * @return the command line JMH gets
     */
    static String[] withForkFlags(String[] args, List<String> inputArguments, String flags) {
        if (flags.isBlank() || inputArguments.stream().anyMatch(a -> a.startsWith("--add-exports"))) {
            return args;
        }
        List<String> all = new ArrayList<>(List.of("-jvmArgsPrepend", flags));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    private static String manifestFlags() throws IOException, URISyntaxException {
        Path jar = Path.of(BenchmarksMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (!Files.isRegularFile(jar)) {
            return "";
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String flags = manifest == null ? null : manifest.getMainAttributes().getValue(FLAGS_ATTRIBUTE);
            return flags == null ? "" : flags;
        }
    }
}
