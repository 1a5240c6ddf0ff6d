package org.spdl4j.examples;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.Pipeline;

/**
 * The loaders' rule for freeing what their stage functions use (FFmpeg decoders, pools, slot tables, CUDA streams)
 * after closing their pipeline: only once every engine thread has ended. {@link Pipeline#close()} gives up waiting
 * after its close timeout when a stage function ignores interrupts; freeing native memory under such a thread would
 * be a use-after-free, so the loader leaks it instead, loudly.
 *
 * <p><b>Threading:</b> any thread (the one closing the loader). <b>Allocation:</b> none unless it logs.
 */
public final class StoppedPipelines {
    private static final Logger LOG = LoggerFactory.getLogger(StoppedPipelines.class);

    private StoppedPipelines() {
    }

    /**
     * Whether the owner of a closed pipeline may free what its stages use; if not, logs an error naming what is
     * leaked and why.
     *
     * @param pipeline  the pipeline, already closed
     * @param owner     the loader, for the message (its name or class)
     * @param resources what the owner will leak instead of freeing, for the message
     * @return {@code true} if every thread of the pipeline has ended; {@code false} (logged) if one still runs
     */
    public static boolean mayFree(Pipeline<?> pipeline, String owner, String resources) {
        if (pipeline.isTerminated()) {
            return true;
        }
        LOG.error("{}: pipeline threads are still running after close (a stage function ignores interrupts; see the "
                + "stack logged by the engine); leaking {} rather than freeing memory they may still use. Make the "
                + "stage function return on interrupt", owner, resources);
        return false;
    }
}
