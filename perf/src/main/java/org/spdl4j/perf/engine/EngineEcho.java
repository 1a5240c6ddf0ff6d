package org.spdl4j.perf.engine;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.WaitPolicy;

/**
 * The engine: a source that emits one item per request straight into the consumer's ring
 * ({@code source -> sink}). One op = the request (one volatile write seen by the spinning source thread, the
 * {@code volatileFlag} hop) + one engine hop (source publishes to the ring, the consumer's {@code next} waits by
 * the policy). So one engine hop ~= this round trip - {@code volatileFlag} / 2.
 */
@State(Scope.Benchmark)
public class EngineEcho {
    /** How the source and the consumer wait on the ring. */
    @Param({"BUSY_SPIN", "BACKOFF"})
    public WaitPolicy waitPolicy;

    final RequestedItems items = new RequestedItems();
    Pipeline<Item> pipeline;

    /**
     * Builds and starts the pipeline.
     *
     * @param pins where the source thread (the echo) runs
     */
    @Setup(Level.Trial)
    public void start(PinnedCpus pins) {
        pipeline = PipelineBuilder.fromSupplier(items).named("latency").sourceWaitPolicy(waitPolicy)
                .sourceCpus(pins.echoCpus())
                .sink(ItemPipeline.CAPACITY, waitPolicy).build().start();
    }

    /** Ends the source, then closes the pipeline. */
    @TearDown(Level.Trial)
    public void stop() {
        items.stop();
        pipeline.close();
    }
}
