package org.spdl4j.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.spdl4j.engine.tune.TuneListener;
import org.spdl4j.loader.Loader;

/**
 * {@code spdl4j run --autotune}'s listener: prints each change as one line ({@code autotune: decode 1 -> 2 threads:
 * ...}) and writes the configuration the tuner settles on as a config file ({@code --config} reads it back), each
 * time it settles, the same way {@code tune} writes its winner.
 *
 * <p><b>Threading:</b> called on the tuner's thread; the writer is the command's (a synchronized {@link PrintWriter}).
 */
final class AutotuneListener implements TuneListener {
    private final PrintWriter out;
    private final PipelineSettings base;
    private final Path file;
    private volatile String settledLine;

    /**
     * Creates the listener.
     *
     * @param out  where the lines go
     * @param base the run's settings (batch size, order, wait policy kept; reads and decode threads replaced)
     * @param file the config file to write when the tuner settles
     */
    AutotuneListener(PrintWriter out, PipelineSettings base, Path file) {
        this.out = out;
        this.base = base;
        this.file = file;
    }

    @Override
    public void changed(String line) {
        out.println("autotune: " + line);
        out.flush();
    }

    @Override
    public void settled(Map<String, Integer> concurrency, double itemsPerSecond, long sinceStartNanos) {
        PipelineSettings s = base;
        Integer reads = concurrency.get(Loader.READ_STAGE);
        if (reads != null) {
            s = s.withReadConcurrency(reads);
        }
        s = s.withDecodeConcurrency(concurrency.get(Loader.DECODE_STAGE));
        String line = String.format(Locale.ROOT, "settled after %.1f s: decode %d threads, %s reads in flight, "
                + "%.0f img/s", sinceStartNanos / 1e9, s.decodeConcurrency(), reads == null ? "-" : reads,
                itemsPerSecond);
        try {
            PipelineArgs.write(s, file, "autotuned by spdl4j run --autotune, " + line);
        } catch (IOException e) {
            throw new UncheckedIOException("--autotune-out " + file + ": " + e.getMessage(), e);
        }
        settledLine = line;
        out.println("autotune: " + line + " -> " + file + " (spdl4j run --config " + file + ")");
        out.flush();
    }

    /** {@return the last settled line, or {@code null} when the tuner never settled} */
    String settledLine() {
        return settledLine;
    }
}
