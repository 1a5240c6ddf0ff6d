package org.spdl4j.engine;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.affinity.ThreadAffinity;

/** Checks a {@link PipelineSpec} before anything is allocated and reports every problem at once, by stage. */
final class PipelineValidator {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,64}");

    private PipelineValidator() {
    }

    static void validate(PipelineSpec spec) {
        List<String> problems = new ArrayList<>();
        if (spec.name() == null || !NAME.matcher(spec.name()).matches()) {
            problems.add("pipeline name '" + spec.name() + "' must be 1-64 letters, digits, '.', '_' or '-'"
                    + " (it names threads and stats)");
        }
        Set<String> names = new HashSet<>();
        names.add(spec.sourceName());
        names.add(PipelineSpec.SINK_NAME);
        for (StageSpec s : spec.stages()) {
            String where = "stage '" + s.name() + "'";
            if (s.name() == null || !NAME.matcher(s.name()).matches()) {
                problems.add(where + ": name must be 1-64 letters, digits, '.', '_' or '-'");
            } else if (!names.add(s.name())) {
                problems.add(where + ": name is used twice (names must be unique; 'source' and 'sink' are taken)");
            }
            StageOptions o = s.options();
            if (o == null) {
                problems.add(where + ": options are null (use StageOptions.defaults())");
                continue;
            }
            checkCapacity(problems, where + ": ring capacity", o.ringCapacity());
            if (o.concurrency() < 1 || o.concurrency() > EngineConfiguration.MAX_CONCURRENCY) {
                problems.add(where + ": concurrency " + o.concurrency() + " must be in [1, "
                        + EngineConfiguration.MAX_CONCURRENCY + "]");
            }
            boolean single = s instanceof StageSpec.AggregateStage || s instanceof StageSpec.DisaggregateStage;
            if (single && o.concurrency() != 1) {
                problems.add(where + ": aggregate and disaggregate stages run on one thread; concurrency must be 1");
            }
            if (o.isAdjustable()) {
                if (single) {
                    problems.add(where + ": aggregate and disaggregate stages run on one thread; no max concurrency");
                } else if (o.maxConcurrency() < o.concurrency()
                        || o.maxConcurrency() > EngineConfiguration.MAX_CONCURRENCY) {
                    problems.add(where + ": max concurrency " + o.maxConcurrency() + " must be in [concurrency "
                            + o.concurrency() + ", " + EngineConfiguration.MAX_CONCURRENCY + "]");
                }
            } else if (o.maxConcurrency() < 0) {
                problems.add(where + ": max concurrency " + o.maxConcurrency() + " must be 0 (fixed) or positive");
            }
            if (o.reorderWindow() != 0) {
                checkCapacity(problems, where + ": reorder window", o.reorderWindow());
            }
            if (o.taskTimeout() != null && (o.taskTimeout().isNegative() || o.taskTimeout().isZero())) {
                problems.add(where + ": task timeout " + o.taskTimeout() + " must be positive (or null for none)");
            }
            checkCpus(problems, where, o.cpus());
        }
        checkCpus(problems, "source '" + spec.sourceName() + "'", spec.sourceCpus());
        checkCapacity(problems, "sink: buffer size", spec.sinkBuffer());
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid pipeline '" + spec.name() + "':\n  - "
                    + String.join("\n  - ", problems));
        }
    }

    private static void checkCpus(List<String> problems, String where, CpuSet cpus) {
        if (cpus != null) {
            ThreadAffinity.problemWith(cpus).ifPresent(p -> problems.add(where + ": " + p));
        }
    }

    private static void checkCapacity(List<String> problems, String what, int capacity) {
        if (capacity < 1 || capacity > EngineConfiguration.MAX_RING_CAPACITY || Integer.bitCount(capacity) != 1) {
            int suggestion = capacity < 1 ? 1
                    : capacity >= EngineConfiguration.MAX_RING_CAPACITY ? EngineConfiguration.MAX_RING_CAPACITY
                    : Integer.highestOneBit(capacity - 1) << 1;
            problems.add(what + " " + capacity + " must be a power of two in [1, 2^30] (try " + suggestion + ")");
        }
    }
}
