package org.spdl4j.media;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bookkeeping of one fuzz run: each mutant must either decode or throw a {@link MediaException} naming its input,
 * within a per-item time limit. Anything else (another exception, an item over the limit) is recorded with how the
 * mutant was made, and the input is saved under {@code target/fuzz-failures/} to reproduce it.
 */
final class FuzzRun {
    static final Path FAILURES = Path.of("target", "fuzz-failures");

    /** Decodes one input; returns normally or throws. */
    interface Decode {
        void run(byte[] input, String label) throws Exception;
    }

    private final String format;
    private final long perItemNanos;
    private final List<String> problems = new ArrayList<>();
    private int decoded;
    private int rejected;
    private long slowestNanos;
    private String slowest = "";

    FuzzRun(String format, long perItemMillis) {
        this.format = format;
        this.perItemNanos = perItemMillis * 1_000_000L;
    }

    void check(int iteration, Mutator.Mutant m, Decode decode) {
        String label = format + "-fuzz-" + iteration;
        long start = System.nanoTime();
        try {
            decode.run(m.bytes(), label);
            decoded++;
        } catch (MediaException e) {
            rejected++;
            if (!label.equals(e.input()) && !e.input().endsWith(label)) {
                problem(iteration, m, "MediaException names '" + e.input() + "', not the input: " + e.getMessage());
            }
        } catch (Exception | Error e) {
            problem(iteration, m, "threw " + e);
        }
        long took = System.nanoTime() - start;
        if (took > slowestNanos) {
            slowestNanos = took;
            slowest = m.how();
        }
        if (took > perItemNanos) {
            problem(iteration, m, "took " + took / 1_000_000 + " ms, over the per-item limit of "
                    + perItemNanos / 1_000_000 + " ms");
        }
    }

    private void problem(int iteration, Mutator.Mutant m, String what) {
        String file = format + "-" + iteration + ".bin";
        try {
            Files.createDirectories(FAILURES);
            Files.write(FAILURES.resolve(file), m.bytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        problems.add(format + " iteration " + iteration + " (" + m.how() + ", saved as " + file + "): " + what);
    }

    List<String> problems() {
        return problems;
    }

    int decoded() {
        return decoded;
    }

    int rejected() {
        return rejected;
    }

    String summary() {
        return format + ": " + decoded + " decoded, " + rejected + " rejected, slowest "
                + slowestNanos / 1_000_000 + " ms (" + slowest + ")";
    }
}
