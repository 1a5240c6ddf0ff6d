package org.spdl4j.examples.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start-up cache's class-version lift, on the real picocli jar the command line ships with. */
class OldClassLiftTest {
    @TempDir
    Path dir;

    @Test
    void shouldLiftEveryOldClassToOneTheNewVerifierAcceptsAndLeaveItWorking() throws Exception {
        Path jar = Files.copy(jarOf(picocli.CommandLine.class), dir.resolve("picocli.jar"));
        assertThat(versions(jar)).as("picocli ships Java 5 classes").contains(49);
        java.util.Set<java.nio.file.attribute.PosixFilePermission> mode =
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--");
        Files.setPosixFilePermissions(jar, mode);

        int lifted = OldClassLift.lift(jar);

        assertThat(lifted).isGreaterThan(100);
        assertThat(Files.getPosixFilePermissions(jar)).as("the jar's mode, not the temporary file's 0600")
            .isEqualTo(mode);
        assertThat(versions(jar)).containsOnly(OldClassLift.LIFTED_VERSION);
        // Every class loads, verifies (type checking against the generated frames) and initialises in a loader of
        // its own; a missing or wrong frame is a VerifyError here.
        List<String> names = classNames(jar);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            for (String name : names) {
                Class<?> c = Class.forName(name, true, loader);
                assertThat(c.getClassLoader()).isSameAs(loader);
            }
            // And it still works: parse a command line with the lifted picocli.
            Class<?> cli = loader.loadClass("picocli.CommandLine");
            Class<?> spec = loader.loadClass("picocli.CommandLine$Model$CommandSpec");
            Class<?> optionSpec = loader.loadClass("picocli.CommandLine$Model$OptionSpec");
            Object command = spec.getMethod("create").invoke(null);
            Object builder = optionSpec.getMethod("builder", String.class, String[].class)
                .invoke(null, "--epochs", new String[0]);
            Class<?> builderType = builder.getClass();
            Method type = builderType.getMethod("type", Class.class);
            type.setAccessible(true); // declared in a package-private superclass
            type.invoke(builder, int.class);
            Method build = builderType.getMethod("build");
            build.setAccessible(true);
            spec.getMethod("addOption", optionSpec).invoke(command, build.invoke(builder));
            Object commandLine = cli.getConstructor(Object.class).newInstance(command);
            Object result = cli.getMethod("parseArgs", String[].class)
                .invoke(commandLine, (Object) new String[] {"--epochs", "3"});
            Method matched = result.getClass().getMethod("matchedOptionValue", String.class, Object.class);
            assertThat(matched.invoke(result, "--epochs", 0)).isEqualTo(3);
        }
    }

    @Test
    void shouldLeaveAJarWithoutOldClassesUntouched() throws Exception {
        Path jar = Files.copy(jarOf(picocli.CommandLine.class), dir.resolve("picocli.jar"));
        OldClassLift.lift(jar);
        byte[] once = Files.readAllBytes(jar);

        assertThat(OldClassLift.lift(jar)).isZero();
        assertThat(Files.readAllBytes(jar)).isEqualTo(once);
    }

    @Test
    void shouldLeaveASignedJarUntouched() throws Exception {
        Path source = jarOf(picocli.CommandLine.class);
        Path signed = dir.resolve("signed.jar");
        try (JarFile in = new JarFile(source.toFile());
             java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(signed))) {
            for (JarEntry e : Collections.list(in.entries())) {
                out.putNextEntry(new java.util.zip.ZipEntry(e.getName()));
                try (InputStream s = in.getInputStream(e)) {
                    s.transferTo(out);
                }
                out.closeEntry();
            }
            out.putNextEntry(new java.util.zip.ZipEntry("META-INF/SIGNER.SF"));
            out.write("Signature-Version: 1.0\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.closeEntry();
        }
        byte[] before = Files.readAllBytes(signed);

        assertThat(OldClassLift.lift(signed)).isZero();
        assertThat(Files.readAllBytes(signed)).isEqualTo(before);
        assertThat(versions(signed)).contains(49);
    }

    private static Path jarOf(Class<?> c) throws Exception {
        Path p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(p.toString()).endsWith(".jar");
        return p;
    }

    private static List<Integer> versions(Path jar) throws Exception {
        List<Integer> v = new ArrayList<>();
        try (JarFile jf = new JarFile(jar.toFile())) {
            for (JarEntry e : Collections.list(jf.entries())) {
                if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
                    try (InputStream in = jf.getInputStream(e)) {
                        byte[] head = in.readNBytes(8);
                        v.add(((head[6] & 0xFF) << 8) | (head[7] & 0xFF));
                    }
                }
            }
        }
        return v;
    }

    private static List<String> classNames(Path jar) throws Exception {
        List<String> names = new ArrayList<>();
        try (JarFile jf = new JarFile(jar.toFile())) {
            for (JarEntry e : Collections.list(jf.entries())) {
                String n = e.getName();
                if (n.endsWith(".class") && !n.startsWith("META-INF/") && !n.endsWith("module-info.class")) {
                    names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
                }
            }
        }
        return names;
    }
}
