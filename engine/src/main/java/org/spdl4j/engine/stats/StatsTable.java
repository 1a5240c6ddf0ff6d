package org.spdl4j.engine.stats;

import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link PipelineSnapshot} as an aligned plain-text table, the one the reporter logs and the CLI prints:
 * <pre>
 * pipeline demo: wall 1.0 s, 1496/s out of the last stage since start; shares over the last 1.0 s:
 * stage   workers    in   out  failed  items/s     p50     p90     p99     max  busy%  starved%  backp%       ring
 * source        1  2817  2816       0     2816   231ns   631ns   1.4us  30.5us    0.1       0.0    97.2          -
 * decode        2  1793  1791       0     1791  1.07ms  1.09ms  1.41ms  7.05ms   97.6       0.0     0.0  1023/1024  &lt;- bottleneck
 * batch         1  1791  1791       0     1791   291ns   611ns   1.7us  38.7us    0.1      98.0     0.0     0/1024
 * sink          1  1788  1788       0     1788       -       -       -       -    0.0      98.1     0.0       3/16
 * bottleneck: decode (97.6% busy; batch waits for it 98.0% of its time; add workers or make its task cheaper)
 * </pre>
 * Time shares are clamped to 0..100 for display; a stage that timed no task (the engine's {@code sink}) shows
 * {@code -} for task times. Stateless; allocates the returned string.
 */
public final class StatsTable {
    private static final String[] HEADER = {"stage", "workers", "in", "out", "failed", "items/s", "p50", "p90", "p99",
            "max", "busy%", "starved%", "backp%", "ring"};

    private StatsTable() {
    }

    /**
     * Renders the snapshot: a title line, a header, one row per stage (the bottleneck marked), a verdict line.
     *
     * @param snapshot the figures to show
     * @return the table, lines separated by {@code \n}, ending with a newline
     */
    public static String render(PipelineSnapshot snapshot) {
        List<StageSnapshot> stages = snapshot.stages();
        String[][] cells = new String[stages.size() + 1][];
        cells[0] = HEADER;
        for (int i = 0; i < stages.size(); i++) {
            StageSnapshot s = stages.get(i);
            cells[i + 1] = new String[] {s.stage(), Integer.toString(s.workers()), Long.toString(s.itemsIn()),
                    Long.toString(s.itemsOut()), Long.toString(s.failures()), fmt("%.0f", s.itemsOutPerSecond()),
                    taskTime(s, s.p50Nanos()), taskTime(s, s.p90Nanos()), taskTime(s, s.p99Nanos()),
                    taskTime(s, s.maxNanos()),
                    percent(s.busyPercent()), percent(s.starvedPercent()), percent(s.backPressuredPercent()),
                    s.ringCapacity() == 0 ? "-" : s.ringOccupancy() + "/" + s.ringCapacity()};
        }
        int[] width = new int[HEADER.length];
        for (String[] row : cells) {
            for (int c = 0; c < row.length; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder b = new StringBuilder(128 * cells.length);
        b.append(fmt("pipeline %s: wall %.1f s, %.0f/s out of the last stage since start; shares over the last %.1f s:\n",
                snapshot.pipeline(), snapshot.wallNanos() / 1e9, snapshot.throughput(), snapshot.intervalNanos() / 1e9));
        for (int r = 0; r < cells.length; r++) {
            for (int c = 0; c < HEADER.length; c++) {
                if (c > 0) {
                    b.append("  ");
                }
                pad(b, cells[r][c], width[c], c > 0);
            }
            if (r > 0 && stages.get(r - 1).bottleneck()) {
                b.append("  <- bottleneck");
            }
            b.append('\n');
        }
        b.append(verdict(snapshot)).append('\n');
        return b.toString();
    }

    /**
     * The last line of the table: which stage limits the pipeline and why, per the heuristic of
     * {@link PipelineSnapshot#bottleneck()}.
     *
     * @param snapshot the figures
     * @return one line without a newline
     */
    public static String verdict(PipelineSnapshot snapshot) {
        List<StageSnapshot> stages = snapshot.stages();
        if (snapshot.consumerBound()) {
            // Same rule as BottleneckHeuristic.blockedOutput: the last stage, else the one feeding a passive sink.
            StageSnapshot blocked = stages.get(stages.size() - 1);
            if (blocked.backPressuredPercent() < StatsConfiguration.BOTTLENECK_STARVED_PERCENT && stages.size() >= 2) {
                blocked = stages.get(stages.size() - 2);
            }
            return "bottleneck: the consumer (stage " + blocked.stage() + " is blocked on its output "
                    + percent(blocked.backPressuredPercent()) + "% of its time; the pipeline keeps up)";
        }
        for (int i = 0; i < stages.size(); i++) {
            StageSnapshot s = stages.get(i);
            if (s.bottleneck()) {
                String why = i + 1 < stages.size()
                        ? "; " + stages.get(i + 1).stage() + " waits for it " + percent(stages.get(i + 1).starvedPercent())
                                + "% of its time"
                        : "; it is the last stage";
                return "bottleneck: " + s.stage() + " (" + percent(s.busyPercent()) + "% busy" + why
                        + "; add workers or make its task cheaper)";
            }
        }
        return "bottleneck: none clear";
    }

    /**
     * Formats a duration compactly: {@code 850ns}, {@code 12.3us}, {@code 4.56ms}, {@code 1.23s}.
     *
     * @param nanos the duration in nanoseconds
     * @return the text
     */
    public static String nanos(long nanos) {
        if (nanos < 1_000) {
            return nanos + "ns";
        } else if (nanos < 1_000_000) {
            return fmt("%.1fus", nanos / 1e3);
        } else if (nanos < 1_000_000_000) {
            return fmt("%.2fms", nanos / 1e6);
        }
        return fmt("%.2fs", nanos / 1e9);
    }

    private static String taskTime(StageSnapshot s, long nanos) {
        return s.tasks() == 0 ? "-" : nanos(nanos); // no task timed (the consumer's buffer): no percentile
    }

    private static String percent(double p) {
        return fmt("%.1f", Math.clamp(p, 0.0, 100.0));
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    private static void pad(StringBuilder b, String s, int width, boolean right) {
        if (right) {
            b.repeat(' ', width - s.length()).append(s);
        } else {
            b.append(s).repeat(' ', width - s.length());
        }
    }
}
