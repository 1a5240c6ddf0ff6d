package org.spdl4j.examples.cli;

import java.util.List;
import java.util.Locale;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.PipelineFailedException;
import org.spdl4j.engine.stats.StageStats;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code spdl4j run --max-failures N|P%}: the failure budget of each of the loader's stages (read, decode), as a
 * count ({@code 10}: the 11th failure stops the run) or a percentage of the samples the stage has taken
 * ({@code 5%}, judged once it has taken {@value FailureBudget#DEFAULT_MIN_ITEMS}). A value.
 *
 * @param text   what was given
 * @param budget the budget
 */
record MaxFailures(String text, FailureBudget budget) {
    /** The default: a run whose stage fails more than 5% of its samples stops instead of running on for nothing. */
    static final String DEFAULT = "5%";

    /**
     * Parses the option.
     *
     * @param spec the command, for errors
     * @param text a whole number, or a number followed by {@code %}
     * @return the budget
     * @throws ParameterException naming the option and what it accepts when the text is neither
     */
    static MaxFailures parse(CommandSpec spec, String text) {
        String t = text.trim();
        try {
            if (t.endsWith("%")) {
                double percent = Double.parseDouble(t.substring(0, t.length() - 1).trim());
                if (percent >= 0 && percent <= 100) {
                    return new MaxFailures(t, FailureBudget.fraction(percent / 100));
                }
            } else {
                long count = Long.parseLong(t);
                if (count >= 0) {
                    return new MaxFailures(t, FailureBudget.count(count));
                }
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new ParameterException(spec.commandLine(), "--max-failures " + text + ": give a count of failed"
            + " samples (0 or more, e.g. 10) or a percentage of a stage's samples (0% to 100%, e.g. 5%)");
    }

    /**
     * {@return whether a pipeline failure is this budget spent (a stage's failures exceed it), not another failure}
     *
     * @param failure what the loader threw
     * @param stats   the loader's stages
     */
    boolean spentBy(PipelineFailedException failure, List<StageStats> stats) {
        StageStats s = stage(failure, stats);
        return s != null && s.failures() > 0 && budget.isExceeded(s.failures(), s.itemsIn());
    }

    /**
     * {@return the line that says the budget stopped the run: the stage, its failures, the first and the last}
     *
     * @param failure what the loader threw (its cause is the last failure)
     * @param stats   the loader's stages
     */
    String describe(PipelineFailedException failure, List<StageStats> stats) {
        StageStats s = stage(failure, stats);
        Throwable first = s == null ? null : s.firstFailure();
        Throwable last = failure.getCause();
        return String.format(Locale.ROOT, "--max-failures %s spent: stage '%s' failed %d of the %d samples it took;"
            + " the first failure: %s; the last: %s. Fix the cause, or raise --max-failures to go on past it",
            text, failure.stage(), s == null ? 0 : s.failures(), s == null ? 0 : s.itemsIn(), message(first),
            message(last));
    }

    private static StageStats stage(PipelineFailedException failure, List<StageStats> stats) {
        for (StageStats s : stats) {
            if (s.stage().equals(failure.stage())) {
                return s;
            }
        }
        return null;
    }

    /** A task failure's message; the cause of a wrapper a future completed with (the message names the sample). */
    static String message(Throwable t) {
        while ((t instanceof java.util.concurrent.CompletionException
                || t instanceof java.util.concurrent.ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t == null) {
            return "not recorded";
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
