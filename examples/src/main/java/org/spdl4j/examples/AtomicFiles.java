package org.spdl4j.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Files that appear whole or not at all: written to a temporary file in the target's folder, then moved over the
 * target in one rename. A run killed half-way (or a full disk) never leaves a truncated file under the target's name
 * for a later run to reuse: a cut config that reads back as other options, a cut sample clip that fails every run.
 *
 * <p><b>Threading:</b> stateless; two writers of one target leave one of their files, whole.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /** Writes a file's content to the path it is given. */
    @FunctionalInterface
    public interface Writer {
        /**
         * Writes the content.
         *
         * @param file where (a temporary file with the target's extension, which encoders that pick their format by
         *             name need)
         * @throws IOException when it cannot be written
         */
        void write(Path file) throws IOException;
    }

    /**
     * Writes {@code target} through a temporary file moved into place.
     *
     * @param target the file to create or replace
     * @param writer writes the content to the path it is given
     * @throws IOException when writing or moving fails (the temporary file is deleted; the target is left as it was)
     */
    public static void write(Path target, Writer writer) throws IOException {
        Path absolute = target.toAbsolutePath();
        String name = absolute.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String extension = dot > 0 ? name.substring(dot) : ".tmp";
        Path tmp = Files.createTempFile(absolute.getParent(), "." + name + "-", extension);
        try {
            writer.write(tmp);
            Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp); // only there when the write or the move failed
        }
    }
}
