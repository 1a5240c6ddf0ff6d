package org.spdl4j.engine;

import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The immutable description of one stage, as validated by {@link PipelineBuilder#build()}. Functions are held with
 * their item types erased (the builder checked them); the runtime never inspects items.
 */
public sealed interface StageSpec {
    /** {@return the stage's name, unique in its pipeline} */
    String name();

    /** {@return how the stage runs} */
    StageOptions options();

    /** {@return how many threads publish into the stage's output ring} */
    int publishers();

    /**
     * A pipe whose function runs on the stage's own worker threads.
     *
     * @param name    the stage's name
     * @param fn      the function; a {@code null} result drops the item
     * @param options how it runs; {@code concurrency} worker threads
     */
    record MapStage(String name, Function<Object, ?> fn, StageOptions options) implements StageSpec {
        @Override
        public int publishers() {
            return options.startedConcurrency();
        }
    }

    /**
     * A pipe whose function starts an asynchronous task; {@code concurrency} tasks in flight, dispatched by one thread.
     *
     * @param name    the stage's name
     * @param fn      returns the task's stage; a {@code null} result (stage or value) drops the item
     * @param options how it runs
     */
    record AsyncStage(String name, Function<Object, ? extends CompletionStage<?>> fn, StageOptions options)
            implements StageSpec {
        @Override
        public int publishers() {
            return 1;
        }
    }

    /**
     * A pipe whose blocking function runs on virtual threads; {@code concurrency} tasks in flight.
     *
     * @param name    the stage's name
     * @param fn      the blocking function; a {@code null} result drops the item
     * @param options how it runs
     */
    record VirtualThreadStage(String name, Function<Object, ?> fn, StageOptions options) implements StageSpec {
        @Override
        public int publishers() {
            return 1;
        }
    }

    /**
     * Folds items into aggregates on one thread.
     *
     * @param name       the stage's name
     * @param aggregator creates the stage's aggregator (called once per run)
     * @param options    how it runs (concurrency must be 1)
     */
    record AggregateStage(String name, Supplier<? extends Aggregator<Object, ?>> aggregator, StageOptions options)
            implements StageSpec {
        @Override
        public int publishers() {
            return 1;
        }
    }

    /**
     * Splits each {@link Iterable} item into its elements, on one thread.
     *
     * @param name    the stage's name
     * @param options how it runs (concurrency must be 1)
     */
    record DisaggregateStage(String name, StageOptions options) implements StageSpec {
        @Override
        public int publishers() {
            return 1;
        }
    }
}
