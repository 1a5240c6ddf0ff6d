package org.spdl4j.perf.engine;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.WaitPolicy;

/**
 * The spdl4j engine in the benchmark shape: a supplier source handing out pooled {@link Item}s, two one-worker pipes
 * ({@code plus-one}, {@code times-three}), rings of {@link ItemPipeline#CAPACITY} slots, the benchmark thread as the
 * consumer through {@link Pipeline#next(Duration)}. Every stage and the consumer wait by the same policy; the source
 * and both pipes publish by the same {@link PublishBatching} (the supplier never waits for the consumer, so batching
 * its items is safe).
 */
final class EnginePipeline implements ItemPipeline {
    /** Long enough never to expire; a constant so {@link #take()} passes no new object. */
    private static final Duration FOREVER = Duration.ofDays(1);

    private final Pipeline<Item> pipeline;

    EnginePipeline(WaitPolicy policy, PublishBatching batching, StagePlacement place) {
        this(policy, batching, place, "1");
    }

    /**
     * As {@link #EnginePipeline(WaitPolicy, PublishBatching, StagePlacement)} with each pipe's workers: {@code N}
     * fixed, or {@code N/M} adjustable ({@link StageOptions#withMaxConcurrency}: M started, N working, the rest
     * parked), so a fixed stage and an adjustable one of the same shape compare side by side.
     */
    EnginePipeline(WaitPolicy policy, PublishBatching batching, StagePlacement place, String workers) {
        int slash = workers.indexOf('/');
        int active = Integer.parseInt(slash < 0 ? workers : workers.substring(0, slash));
        StageOptions options = StageOptions.defaults().withWaitPolicy(policy).withRingCapacity(CAPACITY)
                .withPublishBatching(batching).withConcurrency(active);
        if (slash >= 0) {
            options = options.withMaxConcurrency(Integer.parseInt(workers.substring(slash + 1)));
        }
        PipelineBuilder<Item> source = PipelineBuilder.fromSupplier(new PooledItems()).named("bench")
                .sourceWaitPolicy(policy).sourcePublishBatching(batching);
        if (place.source() != null) {
            source = source.sourceCpus(place.source());
        }
        pipeline = source
                .pipe("plus-one", Item::plusOne, place.map1() == null ? options : options.withCpus(place.map1()))
                .pipe("times-three", Item::timesThree,
                        place.map2() == null ? options : options.withCpus(place.map2()))
                .sink(CAPACITY, policy)
                .build()
                .start();
    }

    /** Endless source over the item pool (runs on the source thread only, so a plain counter). */
    private static final class PooledItems implements Supplier<Item> {
        private final Item[] pool = Item.pool(POOL);
        private long next;

        @Override
        public Item get() {
            Item it = pool[(int) next & (POOL - 1)];
            it.value = next++;
            return it;
        }
    }

    @Override
    public long take() throws InterruptedException {
        try {
            return pipeline.next(FOREVER).value;
        } catch (TimeoutException e) {
            throw new IllegalStateException("no item in a day", e);
        }
    }

    @Override
    public void stop() {
        pipeline.close();
    }
}
