package org.spdl4j.engine;

import java.io.Serial;

/**
 * The pipeline failed: a stage exceeded its failure budget, the source threw, or an engine thread died. Thrown to the
 * consumer by its next call ({@link Pipeline#next(java.time.Duration)} or the iterator); the cause is the failure
 * that decided it.
 */
public final class PipelineFailedException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String pipeline;
    private final String stage;

    /**
     * Creates the exception.
     *
     * @param pipeline the pipeline's name
     * @param stage    the stage that failed
     * @param message  what happened and what to do
     * @param cause    the failure that decided it
     */
    public PipelineFailedException(String pipeline, String stage, String message, Throwable cause) {
        super("pipeline '" + pipeline + "', stage '" + stage + "': " + message, cause);
        this.pipeline = pipeline;
        this.stage = stage;
    }

    /** {@return the name of the stage that failed} */
    public String stage() {
        return stage;
    }

    /** {@return the name of the pipeline} */
    public String pipeline() {
        return pipeline;
    }
}
