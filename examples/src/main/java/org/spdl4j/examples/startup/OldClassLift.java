package org.spdl4j.examples.startup;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.lang.constant.ClassDesc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites the classes of a jar compiled for Java 5 or older (class file version below 50) as version 52 classes with
 * stack map frames, so that JDK 25's ahead-of-time cache can hold them.
 *
 * <p>Why: the AOT cache links classes ahead of time, which it cannot do for a class the old (type-inferring) verifier
 * must check; it skips every such "old class", and each start of the command line then loads, parses and verifies
 * them from the jar. picocli is compiled for Java 5: its 170 classes took 0.15-0.2 s of each start on a 2-core
 * machine. The rewrite sets the version and lets the JDK's class-file library compute the frames (which the newer
 * verifier then checks at load time as usual); the instructions stay as they were, except that unreachable code, if
 * any, is patched the library's default way (no frame can be computed for it).
 *
 * <p>The launcher runs it once per build over {@code examples/target/lib}; jars without old classes are left as they
 * are, and a jar whose classes cannot all be rewritten (a frame needs a class the jar does not hold) is left as it was,
 * so the worst outcome is the start-up of today. Not thread-safe; a command-line tool.
 */
public final class OldClassLift {
    /** The first class file version verified by type checking (Java 6). */
    static final int FIRST_NEW_VERSION = 50;
    /** The version written (Java 8: stack map frames required, no other change needed). */
    static final int LIFTED_VERSION = 52;

    private OldClassLift() {
    }

    /**
     * Lifts each jar named whose classes are old; prints one line per jar lifted or left as it was.
     *
     * @param args jar files
     */
    public static void main(String[] args) {
        int failed = 0;
        for (String a : args) {
            Path jar = Path.of(a);
            try {
                int n = lift(jar);
                if (n > 0) {
                    System.err.printf("spdl4j: %s: %d classes lifted to version %d for the start-up cache%n",
                        jar.getFileName(), n, LIFTED_VERSION);
                }
            } catch (IOException | RuntimeException | LinkageError e) {
                failed++;
                System.err.println("spdl4j: " + jar.getFileName() + " left as it was (its old classes stay out of"
                    + " the start-up cache): " + e);
            }
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    /**
     * Rewrites a jar in place when it holds old classes; the jar is replaced in one move, never left half written.
     *
     * @param jar the jar
     * @return the classes rewritten, 0 when the jar holds no old class or is signed (the jar is then untouched: a
     *         rewritten class would no longer match its signature)
     * @throws IOException when the jar cannot be read or written
     * @throws IllegalArgumentException when a class cannot be rewritten (the jar is then untouched)
     */
    public static int lift(Path jar) throws IOException {
        if (signed(jar)) {
            return 0;
        }
        if (!hasOldClass(jar)) {
            return 0;
        }
        Map<String, byte[]> classes = classes(jar);
        ClassHierarchyResolver inJar = ClassHierarchyResolver.ofResourceParsing(
            (ClassDesc d) -> stream(classes.get(internalName(d) + ".class")));
        ClassFile cf = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                // Class files are parsed, never loaded: a class of the jar whose superclass lives in a missing
                // optional dependency fails its own rewrite (left as it was) instead of throwing a linkage error.
                inJar.orElse(ClassHierarchyResolver.ofResourceParsing(ClassLoader.getSystemClassLoader()))),
            ClassFile.StackMapsOption.GENERATE_STACK_MAPS);
        Map<String, byte[]> lifted = new HashMap<>();
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            if (isOld(e.getValue())) {
                lifted.put(e.getKey(), lift(cf, e.getValue()));
            }
        }
        Path tmp = Files.createTempFile(jar.toAbsolutePath().getParent(), jar.getFileName().toString(), ".tmp");
        try {
            write(jar, lifted, tmp);
            keepPermissions(jar, tmp);
            Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return lifted.size();
    }

    /** {@return a class's bytes at version {@value #LIFTED_VERSION}, every method's code rebuilt with frames} */
    static byte[] lift(ClassFile cf, byte[] bytes) {
        ClassModel model = cf.parse(bytes);
        ClassTransform version = (builder, element) -> {
            if (element instanceof ClassFileVersion) {
                builder.withVersion(LIFTED_VERSION, 0);
            } else {
                builder.with(element);
            }
        };
        // Rebuilding each method body (an accept-all code transform) is what makes the library compute the frames;
        // a body passed through unchanged would keep its frameless code.
        return cf.transformClass(model, version.andThen(ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)));
    }

    /** {@return whether a class file's major version is below {@value #FIRST_NEW_VERSION}} */
    static boolean isOld(byte[] classFile) {
        int major = ((classFile[6] & 0xFF) << 8) | (classFile[7] & 0xFF);
        return major < FIRST_NEW_VERSION;
    }

    /** The temporary file is created private (0600): give it the jar's own permissions before it replaces the jar. */
    private static void keepPermissions(Path jar, Path tmp) throws IOException {
        try {
            Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(jar));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: nothing to keep
        }
    }

    /** {@return whether any class of the jar (multi-release variants aside) is older than version 50} */
    static boolean hasOldClass(Path jar) throws IOException {
        try (JarFile jf = new JarFile(jar.toFile(), false)) {
            for (JarEntry e : Collections.list(jf.entries())) {
                if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
                    try (InputStream in = jf.getInputStream(e)) {
                        byte[] head = in.readNBytes(8);
                        if (head.length == 8 && isOld(head)) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    /** {@return whether the jar carries a signature (a {@code META-INF/*.SF} file)} */
    static boolean signed(Path jar) throws IOException {
        try (JarFile jf = new JarFile(jar.toFile(), false)) {
            return Collections.list(jf.entries()).stream().map(JarEntry::getName)
                .anyMatch(n -> n.startsWith("META-INF/") && n.indexOf('/', "META-INF/".length()) < 0
                    && n.toUpperCase(java.util.Locale.ROOT).endsWith(".SF"));
        }
    }

    private static Map<String, byte[]> classes(Path jar) throws IOException {
        Map<String, byte[]> classes = new HashMap<>();
        try (JarFile jf = new JarFile(jar.toFile())) {
            for (JarEntry e : Collections.list(jf.entries())) {
                // Multi-release variants (META-INF/versions/N/...) are compiled for N already: never old.
                if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
                    try (InputStream in = jf.getInputStream(e)) {
                        classes.put(e.getName(), in.readAllBytes());
                    }
                }
            }
        }
        return classes;
    }

    private static void write(Path jar, Map<String, byte[]> lifted, Path out) throws IOException {
        try (JarFile jf = new JarFile(jar.toFile());
             ZipOutputStream zo = new ZipOutputStream(Files.newOutputStream(out))) {
            for (JarEntry e : Collections.list(jf.entries())) {
                byte[] b = lifted.get(e.getName());
                if (b == null) {
                    try (InputStream in = jf.getInputStream(e)) {
                        b = in.readAllBytes();
                    }
                }
                ZipEntry copy = new ZipEntry(e.getName());
                copy.setTime(e.getTime());
                zo.putNextEntry(copy);
                zo.write(b);
                zo.closeEntry();
            }
        }
    }

    private static String internalName(ClassDesc d) {
        String s = d.descriptorString();
        return s.substring(1, s.length() - 1);
    }

    private static InputStream stream(byte[] b) {
        return b == null ? null : new ByteArrayInputStream(b);
    }
}
