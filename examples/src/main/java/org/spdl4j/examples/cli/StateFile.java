package org.spdl4j.examples.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.spdl4j.examples.AtomicFiles;
import org.spdl4j.loader.LoaderState;
import org.spdl4j.loader.internal.IoMessages;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code spdl4j run --state FILE}: the loader's {@link LoaderState} as one line of text ({@link LoaderState#encode()}),
 * read when the file exists at the start (the run resumes from it) and written when the run ends. A write goes to a
 * temporary file beside it, then moved over it: a run killed while writing leaves the previous state whole.
 *
 * <p><b>Threading:</b> stateless.
 */
final class StateFile {
    private StateFile() {
    }

    /**
     * Reads a saved state.
     *
     * @param spec the command, for errors
     * @param file the file
     * @return the state, or {@code null} when the file does not exist (the run starts afresh)
     * @throws ParameterException when the file cannot be read or holds no state
     */
    static LoaderState read(CommandSpec spec, Path file) {
        if (!Files.exists(file)) {
            return null;
        }
        try {
            return LoaderState.parse(Files.readString(file));
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--state " + file + ": " + IoMessages.describe(e));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--state " + file + ": " + e.getMessage()
                + " (a state spdl4j run --state wrote; delete the file to start afresh)");
        }
    }

    /**
     * Writes a state, whole or not at all.
     *
     * @param file  the file
     * @param state the state
     * @throws IOException when it cannot be written (the previous file is left as it was)
     */
    static void write(Path file, LoaderState state) throws IOException {
        String text = state.encode() + "\n";
        AtomicFiles.write(file, tmp -> Files.writeString(tmp, text));
    }

    /**
     * {@return samples the state settles, of epochs before {@code epochs}: the earlier ones in full}
     *
     * @param state    the state
     * @param perEpoch samples per epoch for this rank
     * @param epochs   the run's epochs
     */
    static long settled(LoaderState state, long perEpoch, long epochs) {
        long n = Math.min(state.epoch(), epochs) * perEpoch;
        for (var e : state.marks().entrySet()) {
            if (e.getKey() < epochs) {
                n += e.getValue().settled();
            }
        }
        return n;
    }
}
