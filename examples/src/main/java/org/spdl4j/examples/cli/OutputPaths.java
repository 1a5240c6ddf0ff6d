package org.spdl4j.examples.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Checks of the paths the commands write their results to ({@code --out}), made before anything runs: a path that
 * cannot be written is a bad argument (exit status 2), not a failure found after a tuning search, a profile or a soak
 * whose results would then be lost. The checks create and write nothing (a refused command leaves no trace).
 *
 * <p><b>Threading:</b> stateless. Not on any hot path.
 */
final class OutputPaths {
    private OutputPaths() {
    }

    /**
     * Checks a file to be written, replacing it: it is not a folder, and its folder exists.
     *
     * @param spec   the command, for the error
     * @param option the option that named it, such as {@code --out}
     * @param file   the path
     * @throws ParameterException naming the option and the path when the file cannot be written there
     */
    static void checkFile(CommandSpec spec, String option, Path file) {
        if (Files.isDirectory(file)) {
            throw new ParameterException(spec.commandLine(), option + " " + file + ": is a directory (name a file)");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new ParameterException(spec.commandLine(), option + " " + file + ": its folder " + parent
                + (Files.exists(parent) ? " is not a directory" : " does not exist"));
        }
    }

    /**
     * Checks a folder the command creates if needed: neither it nor the nearest of its parents that exists is a file.
     *
     * @param spec   the command, for the error
     * @param option the option that named it, such as {@code --out}
     * @param dir    the path
     * @throws ParameterException naming the option and the path when a file is in the way
     */
    static void checkDirectory(CommandSpec spec, String option, Path dir) {
        for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (!Files.isDirectory(p)) {
                    throw new ParameterException(spec.commandLine(), option + " " + dir + ": not a directory (" + (
                        p.equals(dir.toAbsolutePath()) ? "a file is in the way" : "the file " + p + " is in the way")
                        + ")");
                }
                return;
            }
        }
    }
}
