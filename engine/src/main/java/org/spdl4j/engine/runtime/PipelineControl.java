package org.spdl4j.engine.runtime;

import com.lmax.disruptor.SequenceBarrier;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import org.spdl4j.engine.PipelineFailedException;
import org.spdl4j.engine.ring.ItemLink;
import org.spdl4j.engine.ring.RunFlag;

/**
 * The shared state of one running pipeline: whether it runs, and the failure that stopped it. The first failure wins;
 * failing stops every wait loop and alerts every link so workers leave their waits promptly.
 *
 * <p><b>Threading:</b> any thread; the failure is a volatile field set by compare-and-set (first wins), so the
 * consumer's check on every call is one load of this object's field.
 */
public final class PipelineControl {
    private final String pipeline;
    private final RunFlag running = new RunFlag();
    private static final VarHandle FAILURE;

    static {
        try {
            FAILURE = MethodHandles.lookup().findVarHandle(PipelineControl.class, "failure",
                    PipelineFailedException.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile PipelineFailedException failure;
    private volatile PipelineFailedException sourceFailure;
    private volatile List<ItemLink> links = List.of();
    private volatile List<SequenceBarrier> barriers = List.of();

    /**
     * Creates the control of a running pipeline.
     *
     * @param pipeline the pipeline's name
     */
    public PipelineControl(String pipeline) {
        this.pipeline = pipeline;
    }

    /** {@return the pipeline's name} */
    public String pipeline() {
        return pipeline;
    }

    /** {@return the run flag every wait loop polls} */
    public RunFlag running() {
        return running;
    }

    /**
     * Sets the links to alert when the pipeline stops.
     *
     * @param all every link of the pipeline
     */
    public void links(List<ItemLink> all) {
        this.links = List.copyOf(all);
    }

    /**
     * Fails the pipeline (first call wins), stops it and alerts every link.
     *
     * @param stage   the stage that failed
     * @param message what happened and what to do
     * @param cause   the failure that decided it
     */
    public void fail(String stage, String message, Throwable cause) {
        if (FAILURE.compareAndSet(this, null, new PipelineFailedException(pipeline, stage, message, cause))) {
            stop();
        }
    }

    /**
     * Records that the source failed; the pipeline delivers what was emitted, then ends with this failure.
     *
     * @param stage the source's name
     * @param cause what the source threw
     */
    public void sourceFailed(String stage, Throwable cause) {
        sourceFailure = new PipelineFailedException(pipeline, stage,
                "the source threw after emitting its items so far; fix the source (cause below)", cause);
    }

    /** {@return the failure that stopped the pipeline, or {@code null}} */
    public PipelineFailedException failure() {
        return failure;
    }

    /** {@return the source's failure, or {@code null}} */
    public PipelineFailedException sourceFailure() {
        return sourceFailure;
    }

    /**
     * Sets further barriers to alert when the pipeline stops: a record pipeline's, whose workers wait on them and
     * would otherwise go on (and spin, under busy policies) after a failure until close.
     *
     * @param all the barriers
     */
    public void barriers(List<SequenceBarrier> all) {
        this.barriers = List.copyOf(all);
    }

    /** Stops every wait loop and wakes every consumer waiting on a link or barrier. */
    public void stop() {
        running.stop();
        for (ItemLink link : links) {
            link.alert();
        }
        for (SequenceBarrier barrier : barriers) {
            barrier.alert();
        }
    }

    /**
     * Called by an engine thread after a stage function returned: clears an interrupt the function left on the thread
     * (the catch-and-restore idiom), which would otherwise make the thread's next wait fail or spin. Close's interrupt
     * is kept: close stops the pipeline before it interrupts, and the interrupt seen here happens-before what follows,
     * so a stopped pipeline is seen and the flag set again. A volatile read when no interrupt is pending.
     */
    public void clearTaskInterrupt() {
        if (Thread.interrupted() && !running.isRunning()) {
            Thread.currentThread().interrupt();
        }
    }
}
