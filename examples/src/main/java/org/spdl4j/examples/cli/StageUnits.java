package org.spdl4j.examples.cli;

import java.util.Set;
import org.spdl4j.loader.Loader;

/**
 * What a loader stage counts: samples (images, clips) up to and into {@value Loader#DECODE_STAGE}, batches after it.
 * The decode stage takes samples and puts out a batch when its last slot fills, so it counts samples in and batches
 * out, and its rate is in samples per second, the work it does. Stages of other pipelines count items. Immutable.
 *
 * @param sampleUnit what a sample is called ({@code images}, {@code clips})
 */
record StageUnits(String sampleUnit) {
    private static final Set<String> SAMPLE_STAGES = Set.of("source", Loader.READ_STAGE, Loader.ASSIGN_STAGE,
        Loader.DECODE_STAGE);
    private static final Set<String> BATCH_STAGES = Set.of(Loader.TRANSFER_STAGE, "sink");

    /**
     * {@return the unit of the items a stage takes in}
     *
     * @param stage the stage's name
     */
    String in(String stage) {
        return SAMPLE_STAGES.contains(stage) ? sampleUnit : BATCH_STAGES.contains(stage) ? "batches" : "items";
    }

    /**
     * {@return the unit of the items a stage puts out}
     *
     * @param stage the stage's name
     */
    String out(String stage) {
        return stage.equals(Loader.DECODE_STAGE) ? "batches" : in(stage);
    }

    /**
     * {@return whether a stage's rate counts what it takes in (all but the source, which takes nothing)}
     *
     * @param stage the stage's name
     */
    boolean rateCountsInput(String stage) {
        return !stage.equals("source");
    }

    /**
     * {@return the unit of a stage's rate, for example {@code images/s}}
     *
     * @param stage the stage's name
     */
    String rate(String stage) {
        return (rateCountsInput(stage) ? in(stage) : out(stage)) + "/s";
    }
}
