package org.spdl4j.examples.report;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * The task-time intervals of one run, read from the {@code .hlog} that {@code spdl4j run --report} writes: per stage,
 * the interval histograms in time order. A tag {@code <pipeline>:<stage>} names the stage (the part after the last
 * colon); untagged histograms are left out. Immutable once read.
 *
 * @param source the file read
 * @param stages stage name to its intervals, in the order the log first names them
 */
public record RunLog(Path source, Map<String, List<Interval>> stages) {
    /**
     * One interval of one stage.
     *
     * @param seconds   how long the interval lasted
     * @param histogram the task times recorded in it, ns
     */
    public record Interval(double seconds, Histogram histogram) {
    }

    /**
     * Reads a run: a {@code .hlog} file, or a report folder holding {@code run.hlog}.
     *
     * @param path the file or folder
     * @return the run's intervals
     * @throws IOException when the file is missing or not an HdrHistogram log
     */
    public static RunLog read(Path path) throws IOException {
        Path file = Files.isDirectory(path) ? path.resolve("run.hlog") : path;
        if (!Files.isRegularFile(file)) {
            throw new FileNotFoundException(file + ": no such file (give a report folder holding run.hlog, or a"
                + " .hlog file)");
        }
        Map<String, List<Interval>> stages = new LinkedHashMap<>();
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
                if (h.getTag() == null || !(h instanceof Histogram histogram)) {
                    continue;
                }
                String tag = h.getTag();
                String stage = tag.substring(tag.lastIndexOf(':') + 1);
                double seconds = Math.max(0, (h.getEndTimeStamp() - h.getStartTimeStamp()) / 1000.0);
                stages.computeIfAbsent(stage, s -> new ArrayList<>()).add(new Interval(seconds, histogram));
            }
        } catch (RuntimeException e) { // the reader throws unchecked exceptions on a malformed line
            throw new IOException(file + ": not an HdrHistogram interval log (" + e.getMessage() + ")", e);
        }
        if (stages.isEmpty()) {
            throw new IOException(file + ": no tagged interval histogram (not a log written by spdl4j run?)");
        }
        return new RunLog(file, stages);
    }

    /** {@return each stage's intervals merged into one histogram (stages that timed no task are left out)} */
    public Map<String, Histogram> merged() {
        Map<String, Histogram> merged = new LinkedHashMap<>();
        stages.forEach((stage, intervals) -> {
            Histogram all = null;
            for (Interval i : intervals) {
                if (all == null) { // auto-resizing: intervals decoded from the log may differ in range
                    all = new Histogram(i.histogram().getNumberOfSignificantValueDigits());
                }
                all.add(i.histogram());
            }
            if (all != null && all.getTotalCount() > 0) {
                merged.put(stage, all);
            }
        });
        return merged;
    }
}
