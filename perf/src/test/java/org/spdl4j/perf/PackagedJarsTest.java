package org.spdl4j.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@code mvn verify} ships: each library jar is a module exporting its API packages and not the engine's
 * internals, with a {@code -sources.jar} and a {@code -javadoc.jar} beside it; the BOM names every library artifact at
 * this version; {@code java -jar perf/target/benchmarks.jar} runs with no JVM flags, forks included.
 *
 * <p>Runs in perf's {@code verify} phase (its own surefire execution, see perf/pom.xml), after every jar of the build
 * is packaged; {@code mvn test} does not run it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PackagedJarsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String VERSION = System.getProperty("spdl4j.version");

    /** A library's main jar, found beside its -sources, -javadoc and -tests jars. */
    private static Path libraryJar(String module, String artifact) {
        Path jar = ROOT.resolve(module).resolve("target").resolve(artifact + "-" + VERSION + ".jar");
        assertThat(jar).as("run mvn verify: the jar of " + module).isRegularFile();
        return jar;
    }

    /** The lines of {@code jar --describe-module --file jar}. */
    private static List<String> describeModule(Path jar) {
        ToolProvider tool = ToolProvider.findFirst("jar").orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = tool.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "--describe-module", "--file", jar.toString());
        String described = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as("jar --describe-module --file %s: %s%s", jar, described, err).isZero();
        return described.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    /** {@code exports p} for each package, in the order of the descriptor listing. */
    private static List<String> exports(String... packages) {
        return Stream.of(packages).map(p -> "exports " + p).toList();
    }

    /** The module's name: the descriptor listing's first word, less its {@code @version}. */
    private static String moduleName(List<String> lines) {
        return lines.getFirst().split(" ")[0].split("@")[0];
    }

    private static List<String> assertModule(String module, String artifact, String name, String... exported) {
        Path jar = libraryJar(module, artifact);
        List<String> lines = describeModule(jar);
        assertThat(moduleName(lines)).as(jar + " module name").isEqualTo(name);
        assertThat(lines.stream().filter(l -> l.startsWith("exports ")).toList()).as(jar + " exports")
                .containsExactlyInAnyOrderElementsOf(exports(exported));
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(file.stream().map(e -> e.getName())).as(jar + ": the build's versioned module-info copy")
                    .noneMatch(n -> n.startsWith("META-INF/versions"));
        } catch (IOException e) {
            throw new AssertionError("cannot read " + jar + ": " + e, e);
        }
        assertCompanions(module, artifact, name);
        return lines;
    }

    /** The lines of a listing that start with {@code qualified exports}. */
    private static List<String> qualifiedExports(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("qualified exports")).toList();
    }

    /** The -sources.jar (with module-info.java) and a non-empty -javadoc.jar (with its index page). */
    private static void assertCompanions(String module, String artifact, String name) {
        Path target = ROOT.resolve(module).resolve("target");
        Path sources = target.resolve(artifact + "-" + VERSION + "-sources.jar");
        Path javadoc = target.resolve(artifact + "-" + VERSION + "-javadoc.jar");
        try (JarFile s = new JarFile(sources.toFile()); JarFile j = new JarFile(javadoc.toFile())) {
            assertThat(s.getEntry("module-info.java")).as(sources + " has module-info.java").isNotNull();
            assertThat(Files.size(javadoc)).as(javadoc + " size").isPositive();
            assertThat(j.getEntry("index.html")).as(javadoc + " has index.html").isNotNull();
            assertThat(j.getEntry(name + "/module-summary.html")).as(javadoc + " documents the module").isNotNull();
        } catch (IOException e) {
            throw new AssertionError("cannot read " + sources + " or " + javadoc + ": " + e, e);
        }
    }

    @Test
    void shouldShipOffHeapAsAModuleExportingItsApi() {
        List<String> lines = assertModule("off-heap", "spdl4j-off-heap", "org.spdl4j.offheap",
                "org.spdl4j.offheap", "org.spdl4j.offheap.tensor", "org.spdl4j.offheap.batch");
        assertThat(qualifiedExports(lines)).isEmpty();
    }

    @Test
    void shouldShipTheEngineAsAModuleThatKeepsRingsAndRuntimeInternal() {
        List<String> lines = assertModule("engine", "spdl4j-engine", "org.spdl4j.engine",
                "org.spdl4j.engine", "org.spdl4j.engine.affinity", "org.spdl4j.engine.loader",
                "org.spdl4j.engine.profile", "org.spdl4j.engine.source", "org.spdl4j.engine.source.http",
                "org.spdl4j.engine.source.tar", "org.spdl4j.engine.stats", "org.spdl4j.engine.tune",
                "org.spdl4j.loader");
        assertThat(qualifiedExports(lines)).as("the internals only spdl4j-records may use")
                .containsExactlyInAnyOrder("qualified exports org.spdl4j.engine.ring to org.spdl4j.records",
                        "qualified exports org.spdl4j.engine.runtime to org.spdl4j.records");
        assertThat(lines).as("the loader's internals are in the jar, not exported")
                .contains("contains org.spdl4j.loader.internal");
    }

    @Test
    void shouldShipRecordsAsAModuleOnTheEngine() {
        List<String> lines = assertModule("engine/records", "spdl4j-records", "org.spdl4j.records",
                "org.spdl4j.records");
        assertThat(qualifiedExports(lines)).isEmpty();
        assertThat(lines).contains("requires org.spdl4j.engine transitive");
    }

    @Test
    void shouldShipS3AsAModuleOnTheEngineThatExportsOnlyItsApi() {
        List<String> lines = assertModule("engine/s3", "spdl4j-s3", "org.spdl4j.s3", "org.spdl4j.s3");
        assertThat(qualifiedExports(lines)).isEmpty();
        assertThat(lines).contains("requires org.spdl4j.engine transitive", "requires software.amazon.awssdk.services.s3");
    }

    @Test
    void shouldShipMediaNativeAsAModuleExportingItsApi() {
        List<String> lines = assertModule("media-native", "spdl4j-media-native", "org.spdl4j.media",
                "org.spdl4j.media");
        assertThat(qualifiedExports(lines)).isEmpty();
    }

    @Test
    void shouldShipCudaStagingAsAModuleExportingItsApi() {
        List<String> lines = assertModule("cuda-staging", "spdl4j-cuda-staging", "org.spdl4j.cuda", "org.spdl4j.cuda");
        assertThat(qualifiedExports(lines)).isEmpty();
    }

    @Test
    void shouldShipTheDjlAdapterAsAModuleOnTheEngineAndDjlsApi() {
        List<String> lines = assertModule("engine/djl", "spdl4j-djl", "org.spdl4j.djl", "org.spdl4j.djl");
        assertThat(qualifiedExports(lines)).isEmpty();
        assertThat(lines).contains("requires org.spdl4j.engine transitive", "requires ai.djl.api transitive");
        for (String[] core : new String[][] {{"off-heap", "spdl4j-off-heap"}, {"engine", "spdl4j-engine"},
                {"media-native", "spdl4j-media-native"}, {"cuda-staging", "spdl4j-cuda-staging"}}) {
            assertThat(describeModule(libraryJar(core[0], core[1]))).as("the core artifact " + core[1])
                    .noneMatch(l -> l.contains("ai.djl"));
        }
    }

    @Test
    void shouldManageEveryLibraryArtifactInTheBomAtThisVersion() throws IOException {
        String bom = Files.readString(ROOT.resolve("engine/bom/pom.xml"));
        assertThat(bom).contains("<artifactId>spdl4j-bom</artifactId>", "<version>" + VERSION + "</version>")
                .doesNotContain("<parent>");
        for (String artifact : List.of("spdl4j-off-heap", "spdl4j-engine", "spdl4j-records", "spdl4j-s3",
                "spdl4j-media-native", "spdl4j-cuda-staging", "spdl4j-djl")) {
            assertThat(bom).as("the BOM manages " + artifact).contains("<artifactId>" + artifact + "</artifactId>");
        }
    }

    @Test
    void shouldRunTheBenchmarksJarWithNoJvmFlags() throws Exception {
        Path jar = ROOT.resolve("perf/target/benchmarks.jar");
        try (JarFile file = new JarFile(jar.toFile())) {
            Attributes manifest = file.getManifest().getMainAttributes();
            assertThat(manifest.getValue("Add-Exports")).isEqualTo("java.base/jdk.internal.misc");
            assertThat(manifest.getValue("Enable-Native-Access")).isEqualTo("ALL-UNNAMED");
        }
        String listed = runJar(jar, "-l");
        assertThat(listed).contains("org.spdl4j.perf.offheap.PoolAcquireReleaseBenchmark.pooledLease");
        // one short fork: JMH starts it with -cp, so it gets the flags from BenchmarksMain, not from the manifest
        String ran = runJar(jar, "offheap.PoolAcquireReleaseBenchmark.pooledLease", "-f", "1", "-wi", "0", "-i", "1",
                "-r", "100ms", "-p", "size=4096", "-foe", "true");
        assertThat(ran).contains("# VM options: --add-exports java.base/jdk.internal.misc=ALL-UNNAMED")
                .contains("PoolAcquireReleaseBenchmark.pooledLease").doesNotContain("IllegalAccessError");
    }

    /** {@code java -jar jar args} with no JVM option at all; its output, after it exited 0. */
    private static String runJar(Path jar, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("JDK_JAVA_OPTIONS");
        Process p = builder.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as(output).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + "\n" + output).isZero();
        return output;
    }
}
