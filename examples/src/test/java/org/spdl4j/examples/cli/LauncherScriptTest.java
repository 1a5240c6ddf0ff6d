package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher scripts ({@code ./spdl4j}, {@code bin/spdl4j-java}): when they rebuild and their exit codes. Each test
 * runs a copy of the real script in a scratch tree whose {@code mvn} and {@code bin/spdl4j-java} are stand-ins, so
 * nothing is built or launched for real.
 */
@Timeout(60)
class LauncherScriptTest {
    /** The repository root: surefire runs in the module's folder ({@code basedir}). */
    private static final Path REPO = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();

    @TempDir
    Path tree;

    record Result(int status, String out, String err) {
    }

    @Test
    void shouldNotRebuildForSourcesGeneratedUnderTarget() throws Exception {
        Path stamp = builtTree();
        Path generated = write(tree.resolve("perf/target/generated-sources/annotations/Foo_jmhTest.java"), "class F {}");
        newerThan(stamp, generated);
        Path device = write(tree.resolve(".device/src/Bar.java"), "class B {}");
        newerThan(stamp, device);

        Result r = launch();
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("launched");
        assertThat(r.err()).doesNotContain("building");
    }

    @Test
    void shouldRebuildForAChangedSourceAndExit3WhenTheBuildFails() throws Exception {
        Path stamp = builtTree();
        Path source = write(tree.resolve("engine/src/main/java/Foo.java"), "class F {}");
        newerThan(stamp, source);

        Result r = launch();
        assertThat(r.status()).as(r.err()).isEqualTo(3);
        assertThat(r.err()).contains("building", "build failed").doesNotContain("launched");
    }

    @Test
    void shouldExit4WhenSpdl4jJavaHomeIsNotAJdk25() throws Exception {
        Path notAJdk = Files.createDirectories(tree.resolve("not-a-jdk"));
        Result r = run(List.of("bash", REPO.resolve("bin/spdl4j-java").toString(), "-version"),
            Map.of("SPDL4J_JAVA_HOME", notAJdk.toString()));
        assertThat(r.status()).as(r.err()).isEqualTo(4);
        assertThat(r.err()).contains("SPDL4J_JAVA_HOME=" + notAJdk, "JDK 25");
    }

    /** A JDK's version is read from its release file: no candidate's java is started just to ask it. */
    @Test
    void shouldReadTheJdkVersionFromItsReleaseFileWithoutStartingIt() throws Exception {
        Path jdk = tree.resolve("fake-jdk");
        write(jdk.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"25.0.1\"\n");
        Path asked = tree.resolve("asked");
        executable(jdk.resolve("bin/java"), "#!/usr/bin/env bash\n"
            + "case \"$*\" in *XshowSettings*) touch " + asked + ";; esac\necho \"launched $*\"\n");
        Result r = run(List.of("bash", REPO.resolve("bin/spdl4j-java").toString(), "-version"),
            Map.of("SPDL4J_JAVA_HOME", jdk.toString()));
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("launched").contains("-version");
        assertThat(asked).as("java started to ask its version").doesNotExist();
    }

    /** The version check of SPDL4J_JAVA_HOME does not read a variable of the caller's environment. */
    @Test
    void shouldNotTakeTheVersionFromAnInheritedVariable() throws Exception {
        Path notAJdk = Files.createDirectories(tree.resolve("not-a-jdk"));
        Result r = run(List.of("bash", REPO.resolve("bin/spdl4j-java").toString(), "-version"),
            Map.of("SPDL4J_JAVA_HOME", notAJdk.toString(), "v", "30", "home_v", "30"));
        assertThat(r.status()).as(r.err()).isEqualTo(4);
    }

    /** Without a JDK 25 the launcher says so (4) before it tries a build that would fail for the same reason (3). */
    @Test
    void shouldExit4BeforeBuildingWhenThereIsNoJdk25() throws Exception {
        Path stamp = builtTree();
        executable(tree.resolve("bin/spdl4j-java"), "#!/usr/bin/env bash\n"
            + "if [ \"$1\" = -version ]; then echo 'spdl4j: no JDK 25 or newer found (stand-in)' >&2; exit 4; fi\n"
            + "echo launched\n");
        Path source = write(tree.resolve("engine/src/main/java/Foo.java"), "class F {}");
        newerThan(stamp, source);

        Result r = launch();
        assertThat(r.status()).as(r.err()).isEqualTo(4);
        assertThat(r.err()).contains("no JDK 25").doesNotContain("building");
    }

    /**
     * After a build the launcher records JDK 25's start-up cache with a short run on the built-in sample, then starts
     * every command with it; SPDL4J_AOT=off neither records nor uses one; a failed recording leaves none behind.
     */
    @Test
    void shouldRecordTheStartUpCacheAfterABuildAndStartWithIt() throws Exception {
        Path stamp = builtTree();
        // A JVM stand-in that writes the cache when asked to and prints the options it was given.
        executable(tree.resolve("bin/spdl4j-java"), "#!/usr/bin/env bash\n"
            + "for a in \"$@\"; do case \"$a\" in -XX:AOTCacheOutput=*) echo cache > \"${a#*=}\";; esac; done\n"
            + "echo \"launched $*\"\n");
        executable(tree.resolve("fake-bin/mvn"), "#!/usr/bin/env bash\nexit 0\n");
        Path source = write(tree.resolve("engine/src/main/java/Foo.java"), "class F {}");
        newerThan(stamp, source);
        Path cache = tree.resolve("examples/target/spdl4j.aot");

        Result built = launch();
        assertThat(built.status()).as(built.err()).isZero();
        assertThat(built.err()).contains("building", "recording the start-up cache");
        assertThat(cache).exists();
        assertThat(built.out()).contains("launched -XX:AOTCache=" + cache).contains("--help")
            .as("the recording run's own output is not shown").doesNotContain("--max-batches");

        Result again = launch();
        assertThat(again.err()).doesNotContain("building", "recording");
        assertThat(again.out()).contains("-XX:AOTCache=" + cache);

        Result off = launch(Map.of("SPDL4J_AOT", "off"));
        assertThat(off.out()).contains("launched").doesNotContain("AOTCache");
    }

    @Test
    void shouldStartWithoutACacheWhenRecordingItFails() throws Exception {
        Path stamp = builtTree();
        executable(tree.resolve("bin/spdl4j-java"), "#!/usr/bin/env bash\n"
            + "for a in \"$@\"; do case \"$a\" in -XX:AOTCacheOutput=*) echo half > \"${a#*=}\"; exit 1;; esac; done\n"
            + "echo \"launched $*\"\n");
        executable(tree.resolve("fake-bin/mvn"), "#!/usr/bin/env bash\nexit 0\n");
        newerThan(stamp, write(tree.resolve("engine/src/main/java/Foo.java"), "class F {}"));

        Result r = launch();
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(tree.resolve("examples/target/spdl4j.aot")).doesNotExist();
        assertThat(r.out()).contains("launched").doesNotContain("AOTCache");
    }

    /** JVM flags from SPDL4J_JAVA_OPTS reach the JVM; soak gets a bounded heap unless those flags set one. */
    @Test
    void shouldPassJavaOptsAndBoundTheSoaksHeap() throws Exception {
        builtTree();
        executable(tree.resolve("bin/spdl4j-java"), "#!/usr/bin/env bash\necho \"launched $*\"\n");

        Result run = launch(Map.of("SPDL4J_JAVA_OPTS", "-Xss2m -Dx=1"), "run");
        assertThat(run.out()).contains("-Xss2m -Dx=1 -cp").doesNotContain("-Xmx");
        Result soak = launch(Map.of(), "soak");
        assertThat(soak.out()).contains("-Xmx1g -cp");
        Result own = launch(Map.of("SPDL4J_JAVA_OPTS", "-Xmx3g"), "soak");
        assertThat(own.out()).contains("-Xmx3g -cp").doesNotContain("-Xmx1g");
    }

    /** A tree as after a build: the real {@code ./spdl4j}, its jar and stamp, stand-ins for mvn and the JVM. */
    private Path builtTree() throws IOException {
        Files.copy(REPO.resolve("spdl4j"), tree.resolve("spdl4j"), StandardCopyOption.COPY_ATTRIBUTES);
        write(tree.resolve("pom.xml"), "<project/>");
        executable(tree.resolve("bin/spdl4j-java"), "#!/usr/bin/env bash\necho launched\n");
        executable(tree.resolve("fake-bin/mvn"), "#!/usr/bin/env bash\necho 'mvn: stand-in fails' >&2\nexit 1\n");
        write(tree.resolve("examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar"), "");
        Path stamp = write(tree.resolve("examples/target/.spdl4j-built"), "");
        Instant built = Instant.now().minusSeconds(3600);
        try (var files = Files.walk(tree)) {
            for (Path p : files.toList()) {
                Files.setLastModifiedTime(p, FileTime.from(built.minusSeconds(60)));
            }
        }
        Files.setLastModifiedTime(stamp, FileTime.from(built));
        return stamp;
    }

    private Result launch() throws Exception {
        return launch(Map.of());
    }

    private Result launch(Map<String, String> env) throws Exception {
        return launch(env, "--help");
    }

    private Result launch(Map<String, String> env, String command) throws Exception {
        String path = tree.resolve("fake-bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        Map<String, String> all = new HashMap<>(env);
        all.put("PATH", path);
        return run(List.of("bash", tree.resolve("spdl4j").toString(), command), all);
    }

    private static Result run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        Path out = Files.createTempFile("launcher", ".out");
        Path err = Files.createTempFile("launcher", ".err");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertThat(p.waitFor(50, TimeUnit.SECONDS)).as("script finished").isTrue();
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static void newerThan(Path stamp, Path file) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(Files.getLastModifiedTime(stamp).toInstant().plusSeconds(60)));
    }

    private static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static void executable(Path file, String text) throws IOException {
        write(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
