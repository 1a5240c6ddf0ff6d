package org.spdl4j.examples.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.spdl4j.loader.LoadedBatch;

/**
 * {@code spdl4j run --keys FILE}: each delivered sample's key and label, tab-separated, one per line, in delivery
 * order. The file is replaced at the start; lines are buffered and flushed at the end of the run (also one ended by
 * SIGINT or SIGTERM, {@link SignalStop}).
 *
 * <p><b>Threading:</b> {@link #write} from the consuming thread; {@link #flush()} and {@link #close()} from any
 * ({@link BufferedWriter} locks). <b>Allocation:</b> a line's text per sample: a diagnosis aid, not the hot path.
 */
final class KeyLog implements AutoCloseable {
    private final Path file;
    private final BufferedWriter out;
    private long lines;

    private KeyLog(Path file, BufferedWriter out) {
        this.file = file;
        this.out = out;
    }

    /**
     * Opens (replaces) the file.
     *
     * @param file where
     * @return the log
     * @throws UncheckedIOException when it cannot be created
     */
    static KeyLog open(Path file) {
        try {
            return new KeyLog(file, Files.newBufferedWriter(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("--keys " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Appends a batch's samples.
     *
     * @param batch the batch the consumer received
     */
    void write(LoadedBatch<?> batch) {
        try {
            for (int i = 0; i < batch.size(); i++) {
                out.write(batch.key(i));
                out.write('\t');
                out.write(Integer.toString(batch.label(i)));
                out.write('\n');
            }
            lines += batch.size();
        } catch (IOException e) {
            throw new UncheckedIOException("--keys " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@return lines written} */
    long lines() {
        return lines;
    }

    /** {@return the file} */
    Path file() {
        return file;
    }

    /** Writes the buffered lines out. */
    void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("--keys " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("--keys " + file + ": " + e.getMessage(), e);
        }
    }
}
