package org.spdl4j.engine.stats;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes every stage's interval task-time histograms to an HdrHistogram interval log ({@code .hlog}), one tag per
 * stage ({@code <pipeline>:<stage>}, whitespace and commas replaced by {@code _}: {@link StageStats#tag()}),
 * timestamps relative to the pipeline's start. The file is UTF-8 (the charset HdrHistogram's reader reads on JDK 18
 * and later), so stage names outside ASCII keep their tags. Read it back with HdrHistogram's {@code HistogramLogReader}, or plot it with
 * HistogramLogAnalyzer / {@code HistogramLogProcessor -tag <pipeline>:<stage>}. Values are nanoseconds; the
 * interval-max column is in milliseconds.
 *
 * <p>It is an {@link IntervalHistogramListener}: it writes whenever the pipeline is sampled (by its reporter or by a
 * snapshot), so it needs no thread of its own. {@link #close()} samples once more, so the tail interval is written,
 * then unregisters and closes the file.
 *
 * <p><b>Threading:</b> called on the sampling thread under the {@link PipelineStats} lock; close from any thread.
 * <b>Allocation:</b> per interval and stage, HdrHistogram's compression and Base64 text (a few KiB); the file is
 * buffered.
 */
public final class StageHistogramLogWriter implements IntervalHistogramListener, Closeable {
    private final PipelineStats stats;
    private final Path path;
    private final PrintStream out;
    private final HistogramLogWriter writer;
    private boolean closed;

    private StageHistogramLogWriter(PipelineStats stats, Path path, OutputStream file) {
        this.stats = stats;
        this.path = path;
        // UTF-8, as HdrHistogram's reader reads (its Scanner uses the default charset, UTF-8 since JDK 18): tags of
        // non-ASCII stage names must come back as written, not as '?' (which would also merge distinct stages).
        this.out = new PrintStream(new BufferedOutputStream(file, 64 * 1024), false, StandardCharsets.UTF_8);
        this.writer = new HistogramLogWriter(out);
        long start = stats.startEpochMillis();
        writer.outputLogFormatVersion();
        // A line break in the name would end the comment and leave the rest for the reader to parse as an interval.
        writer.outputComment("spdl4j pipeline " + stats.name().replaceAll("\\R", " ")
                + ": task time per stage in ns, tag = pipeline:stage");
        writer.outputStartTime(start);
        writer.setBaseTime(start);
        writer.outputBaseTime(start);
        writer.outputLegend();
    }

    /**
     * Creates (or truncates) {@code path}, writes the log header and starts listening to {@code stats}.
     *
     * @param stats the pipeline's stats
     * @param path  the {@code .hlog} file
     * @return the open writer; close it when the pipeline ends
     * @throws IOException when the file cannot be created
     */
    public static StageHistogramLogWriter open(PipelineStats stats, Path path) throws IOException {
        StageHistogramLogWriter w = new StageHistogramLogWriter(stats, path, Files.newOutputStream(path));
        stats.addListener(w);
        return w;
    }

    /** {@return the file written} */
    public Path path() {
        return path;
    }

    /**
     * Writes one stage's interval (called by {@link PipelineStats}); empty intervals are written too, so every
     * stage's timeline has no gaps.
     *
     * @param stage    the stage
     * @param interval its task times during the interval, tagged {@link StageStats#tag()}
     */
    @Override
    public synchronized void onInterval(StageStats stage, Histogram interval) {
        if (closed) {
            return;
        }
        writer.outputIntervalHistogram(interval); // tagged by PipelineStats with stage.tag()
    }

    /**
     * Samples the pipeline once more (writing the tail interval), stops listening, flushes and closes the file.
     * Idempotent. The file is flushed and closed also when the tail sample fails (the {@link PipelineStats} was
     * {@link PipelineStats#detach() detached} before this writer was closed): what was written is kept.
     *
     * @throws IOException           when any write to the file failed (the message names the file)
     * @throws IllegalStateException when the stats were detached first, so the tail interval could not be taken
     *                               (close this writer before detaching); the file is closed all the same
     */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        boolean failed;
        try {
            stats.sample();
        } finally {
            stats.removeListener(this);
            synchronized (this) {
                closed = true;
                out.flush();
                failed = out.checkError();
                out.close();
            }
        }
        if (failed) {
            throw new IOException("writing the HdrHistogram log " + path + " of pipeline '" + stats.name()
                    + "' failed (disk full or file removed?)");
        }
    }
}
