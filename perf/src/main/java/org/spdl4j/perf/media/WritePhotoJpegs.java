package org.spdl4j.perf.media;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the benchmark photos ({@link PhotoJpegs}) to files, with the seed {@link ImageDecodeBenchmark} uses, so a
 * tool outside the JVM decodes the very bytes the JMH benchmarks decode ({@code perf/libjpeg_scaled.py}).
 */
public final class WritePhotoJpegs {
    /** The seed of {@code ImageDecodeBenchmark}'s photos. */
    static final long SEED = 42;

    private WritePhotoJpegs() {
    }

    /**
     * Writes {@code NAME.jpg} for each name into a folder.
     *
     * @param args {@code DIR NAME...} (names: small, medium, 12mp, 12mp-dense)
     * @throws IOException when a file cannot be written
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: WritePhotoJpegs DIR NAME... (small, medium, 12mp, 12mp-dense)");
            System.exit(2);
        }
        Path dir = Files.createDirectories(Path.of(args[0]));
        for (int i = 1; i < args.length; i++) {
            Path file = dir.resolve(args[i] + ".jpg");
            Files.write(file, PhotoJpegs.named(args[i], SEED));
            System.out.println(file + " " + Files.size(file) + " bytes");
        }
    }
}
