package org.spdl4j.examples.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The live progress line: items done of total, items/s over the last interval, ETA, and with {@code --live} the
 * stage that limits the run now ({@link LiveBottleneck}). On a terminal it redraws one
 * line ({@code \r}); otherwise (a log, CI) it prints a plain line at most every few seconds.
 *
 * <p><b>Threading:</b> {@link #update} is called by one sampling thread; {@link #finish} by the same thread or after
 * it stopped.
 */
final class ProgressLine {
    private static final int BAR = 30;
    private static final long PLAIN_EVERY_NANOS = 5_000_000_000L;
    private final PrintWriter err;
    private final boolean terminal;
    private final long total;
    private final String unit;
    private long lastPlainNanos;

    ProgressLine(PrintWriter err, boolean terminal, long total, String unit) {
        this.err = err;
        this.terminal = terminal;
        this.total = total;
        this.unit = unit;
    }

    void update(long done, double ratePerSecond, long nowNanos, String detail) {
        draw(done, ratePerSecond, nowNanos, false, detail);
    }

    private void draw(long done, double ratePerSecond, long nowNanos, boolean force, String detail) {
        String eta = ratePerSecond > 0 && total > 0
            ? String.format(Locale.ROOT, "ETA %.1fs", Math.max(0, total - done) / ratePerSecond) : "ETA -";
        String line;
        if (total > 0) {
            int filled = (int) Math.min(BAR, done * BAR / total);
            line = String.format(Locale.ROOT, "[%s%s] %d/%d %s  %.0f %s/s  %s", "=".repeat(filled),
                " ".repeat(BAR - filled), done, total, unit, ratePerSecond, unit, eta);
        } else {
            line = String.format(Locale.ROOT, "%d %s  %.0f %s/s", done, unit, ratePerSecond, unit);
        }
        if (detail != null && !detail.isEmpty()) {
            line += "  " + detail;
        }
        if (terminal) {
            err.print("\r" + line + "   ");
            err.flush();
        } else if (force || nowNanos - lastPlainNanos >= PLAIN_EVERY_NANOS) {
            lastPlainNanos = nowNanos;
            err.println(line);
            err.flush();
        }
    }

    /**
     * Draws the final state (all done, the run's average rate) and ends the line.
     *
     * @param done          items done
     * @param ratePerSecond the run's average rate
     * @param detail        what {@code --live} adds (the whole run's limiting stage), or null
     */
    void finish(long done, double ratePerSecond, String detail) {
        draw(done, ratePerSecond, System.nanoTime(), true, detail);
        if (terminal) {
            err.println();
            err.flush();
        }
    }
}
