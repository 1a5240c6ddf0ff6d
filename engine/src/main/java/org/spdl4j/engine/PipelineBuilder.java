package org.spdl4j.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.runtime.SourceAdapters;

/**
 * Describes a pipeline: a source, then stages, then the consumer's buffer. Each step returns a new builder typed by
 * what the pipeline now produces; nothing runs until {@link #build()} validates the whole description
 * ({@link PipelineSpec}) and returns a {@link Pipeline}.
 *
 * <pre>{@code
 * try (Pipeline<List<Image>> p = PipelineBuilder.fromIterable(paths).named("train")
 *         .pipeVirtual("read", path -> read(path), StageOptions.defaults().withConcurrency(32))
 *         .pipe("decode", Codec::decode, StageOptions.defaults().withConcurrency(4).withOrder(OutputOrder.INPUT))
 *         .aggregate(64, true)
 *         .sink(8)
 *         .build()) {
 *     for (List<Image> batch : p) { train(batch); }
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> builders are immutable values; any thread.
 *
 * @param <T> the type of the items the pipeline produces so far
 */
public final class PipelineBuilder<T> {
    private static final String SOURCE_NAME = "source";
    private static final Consumer<Object> NO_DISCARD = item -> { };

    private final String name;
    private final Supplier<? extends Source<?>> source;
    private final WaitPolicy sourceWaitPolicy;
    private final PublishBatching sourceBatching;
    private final List<StageSpec> stages;
    private final int sinkBuffer;
    private final WaitPolicy sinkWaitPolicy;
    private final Consumer<Object> onDiscard;
    private final CpuSet sourceCpus;
    private final FailureListener onFailure;

    private PipelineBuilder(String name, Supplier<? extends Source<?>> source, WaitPolicy sourceWaitPolicy,
                            PublishBatching sourceBatching, List<StageSpec> stages, int sinkBuffer,
                            WaitPolicy sinkWaitPolicy, Consumer<Object> onDiscard, CpuSet sourceCpus,
                            FailureListener onFailure) {
        this.onFailure = onFailure;
        this.name = name;
        this.source = source;
        this.sourceWaitPolicy = sourceWaitPolicy;
        this.sourceBatching = sourceBatching;
        this.stages = stages;
        this.sinkBuffer = sinkBuffer;
        this.sinkWaitPolicy = sinkWaitPolicy;
        this.onDiscard = onDiscard;
        this.sourceCpus = sourceCpus;
    }

    /**
     * Starts a pipeline from a source factory, called once per {@link #build()}.
     *
     * @param factory creates the source
     * @param <T>     the item type
     * @return the builder
     */
    public static <T> PipelineBuilder<T> fromSource(Supplier<? extends Source<? extends T>> factory) {
        Objects.requireNonNull(factory, "factory");
        return new PipelineBuilder<>(EngineConfiguration.DEFAULT_PIPELINE_NAME, factory,
                EngineConfiguration.DEFAULT_WAIT_POLICY, EngineConfiguration.DEFAULT_SOURCE_PUBLISH_BATCHING,
                List.of(), EngineConfiguration.DEFAULT_SINK_BUFFER, EngineConfiguration.DEFAULT_WAIT_POLICY,
                NO_DISCARD, null, FailureListener.NONE);
    }

    /**
     * Starts a pipeline from an iterable; each build iterates it afresh.
     *
     * @param items the items ({@code null} elements are skipped)
     * @param <T>   the item type
     * @return the builder
     */
    public static <T> PipelineBuilder<T> fromIterable(Iterable<? extends T> items) {
        Objects.requireNonNull(items, "items");
        return fromSource(() -> SourceAdapters.of(items.iterator()));
    }

    /**
     * Starts a pipeline from an iterator, consumed by one build.
     *
     * @param items the iterator, used on the source thread
     * @param <T>   the item type
     * @return the builder
     */
    public static <T> PipelineBuilder<T> fromIterator(Iterator<? extends T> items) {
        Objects.requireNonNull(items, "items");
        return fromSource(once(() -> SourceAdapters.<T>of(items), "an Iterator"));
    }

    /**
     * Starts a pipeline from a stream, consumed by one build and closed with the pipeline.
     *
     * @param items the stream
     * @param <T>   the item type
     * @return the builder
     */
    public static <T> PipelineBuilder<T> fromStream(Stream<? extends T> items) {
        Objects.requireNonNull(items, "items");
        return fromSource(once(() -> SourceAdapters.<T>of(items), "a Stream"));
    }

    /**
     * Starts a pipeline from a supplier called until it returns {@code null}.
     *
     * @param supplier produces items on the source thread
     * @param <T>      the item type
     * @return the builder
     */
    public static <T> PipelineBuilder<T> fromSupplier(Supplier<? extends T> supplier) {
        return fromSupplier(supplier, null);
    }

    /**
     * Starts a pipeline from a supplier called until it returns {@code null} or an item equal to {@code endMarker}.
     *
     * @param supplier  produces items on the source thread
     * @param endMarker the item that ends the stream (not emitted)
     * @param <T>       the item type
     * @return the builder
     */
    public static <T> PipelineBuilder<T> fromSupplier(Supplier<? extends T> supplier, T endMarker) {
        Objects.requireNonNull(supplier, "supplier");
        return fromSource(() -> SourceAdapters.until(supplier, endMarker));
    }

    /**
     * Starts a continuous pipeline that repeats an iterable forever (until closed), epoch after epoch. Each item
     * carries its epoch ({@link Pipeline#lastEpoch()}); the listener hears when the source emitted an epoch's last item.
     *
     * @param epochItems the items of one epoch, iterated again for each epoch
     * @param listener   told at each epoch's end on the source thread, or {@code null}
     * @param <T>        the item type
     * @return the builder
     */
    public static <T> PipelineBuilder<T> repeating(Iterable<? extends T> epochItems, EpochListener listener) {
        Objects.requireNonNull(epochItems, "epochItems");
        return fromSource(() -> SourceAdapters.repeating(epochItems, listener));
    }

    private static <S> Supplier<S> once(Supplier<S> factory, String what) {
        AtomicBoolean used = new AtomicBoolean();
        return () -> {
            if (!used.compareAndSet(false, true)) {
                throw new IllegalStateException(what + " source can be consumed by one pipeline only; "
                        + "use fromIterable or fromSource to build several");
            }
            return factory.get();
        };
    }

    /**
     * {@return a builder for a pipeline with this name} Used in thread names and stats.
     *
     * @param pipelineName letters, digits, '.', '_' or '-'
     */
    public PipelineBuilder<T> named(String pipelineName) {
        return new PipelineBuilder<>(pipelineName, source, sourceWaitPolicy, sourceBatching, stages, sinkBuffer,
                sinkWaitPolicy, onDiscard, sourceCpus, onFailure);
    }

    /**
     * {@return a builder whose source waits for room by this policy}
     *
     * @param policy the policy
     */
    public PipelineBuilder<T> sourceWaitPolicy(WaitPolicy policy) {
        return new PipelineBuilder<>(name, source, Objects.requireNonNull(policy), sourceBatching, stages,
                sinkBuffer, sinkWaitPolicy, onDiscard, sourceCpus, onFailure);
    }

    /**
     * {@return a builder whose source publishes by this batching} The default,
     * {@link EngineConfiguration#DEFAULT_SOURCE_PUBLISH_BATCHING}, is {@link PublishBatching#PER_ITEM}. Choose
     * {@link PublishBatching#SHORT_TASKS} for a fast source that never waits for the pipeline's consumer (an
     * in-memory list, a generator of records): up to a quarter of the first ring's slots (at most
     * {@link EngineConfiguration#MAX_RUN}) are then published at once, which raises the throughput of pipelines of
     * tiny items. Never for a source whose {@code next()} waits for something the consumer does after taking an
     * item (request/response, credits): the item it holds back would be the one the consumer waits for.
     *
     * @param batching the batching
     */
    public PipelineBuilder<T> sourcePublishBatching(PublishBatching batching) {
        return new PipelineBuilder<>(name, source, sourceWaitPolicy, Objects.requireNonNull(batching), stages,
                sinkBuffer, sinkWaitPolicy, onDiscard, sourceCpus, onFailure);
    }

    /**
     * {@return a builder whose source thread pins itself to these CPUs when it starts} As
     * {@link StageOptions#withCpus(CpuSet)}: for a busy-spinning source on a reserved core; refused sets leave it
     * unpinned with one warning.
     *
     * @param cpus the CPUs, or {@code null} for unpinned (the default)
     */
    public PipelineBuilder<T> sourceCpus(CpuSet cpus) {
        return new PipelineBuilder<>(name, source, sourceWaitPolicy, sourceBatching, stages, sinkBuffer,
                sinkWaitPolicy, onDiscard, cpus, onFailure);
    }

    /**
     * Adds a sync pipe with default options (one worker).
     *
     * @param stageName the stage's name
     * @param fn        the function; returning {@code null} drops the item
     * @param <R>       the result type
     * @return the builder
     */
    public <R> PipelineBuilder<R> pipe(String stageName, Function<? super T, ? extends R> fn) {
        return pipe(stageName, fn, StageOptions.defaults());
    }

    /**
     * Adds a sync pipe: {@code options.concurrency()} worker threads run the function.
     *
     * @param stageName the stage's name
     * @param fn        the function; returning {@code null} drops the item, throwing fails the item
     * @param options   how it runs
     * @param <R>       the result type
     * @return the builder
     */
    public <R> PipelineBuilder<R> pipe(String stageName, Function<? super T, ? extends R> fn, StageOptions options) {
        return then(new StageSpec.MapStage(stageName, erase(fn), options));
    }

    /**
     * Adds an async pipe: the function starts a task and returns its stage; {@code options.concurrency()} tasks are
     * in flight at most. The function runs on the stage's dispatcher thread and must not block.
     *
     * @param stageName the stage's name
     * @param fn        starts the task; a {@code null} stage or result drops the item
     * @param options   how it runs
     * @param <R>       the result type
     * @return the builder
     */
    @SuppressWarnings("unchecked") // items reaching this stage are T, as this builder's type proves
    public <R> PipelineBuilder<R> pipeAsync(String stageName,
                                            Function<? super T, ? extends CompletionStage<? extends R>> fn,
                                            StageOptions options) {
        Objects.requireNonNull(fn, "fn");
        return then(new StageSpec.AsyncStage(stageName,
                (Function<Object, ? extends CompletionStage<?>>) (Function<?, ?>) fn, options));
    }

    /**
     * Adds a pipe whose blocking function runs on virtual threads, one per task, {@code options.concurrency()} in
     * flight at most: for I/O that blocks (files, HTTP).
     *
     * @param stageName the stage's name
     * @param fn        the blocking function; returning {@code null} drops the item
     * @param options   how it runs
     * @param <R>       the result type
     * @return the builder
     */
    public <R> PipelineBuilder<R> pipeVirtual(String stageName, Function<? super T, ? extends R> fn,
                                              StageOptions options) {
        return then(new StageSpec.VirtualThreadStage(stageName, erase(fn), options));
    }

    /**
     * Groups items into lists of {@code size} (stage name {@code aggregate-<k>}).
     *
     * @param size     items per list, at least 1
     * @param dropLast whether to drop a shorter last list
     * @return the builder
     * @throws IllegalArgumentException if {@code size} is below 1
     */
    public PipelineBuilder<List<T>> aggregate(int size, boolean dropLast) {
        String stageName = "aggregate-" + stages.size();
        // Here, not when the stage's factory first runs in build(): spec() would pass a description build() refuses,
        // and the aggregator's own message does not name the stage.
        if (size < 1) {
            throw new IllegalArgumentException("stage '" + stageName + "': batch size " + size + " must be at least 1");
        }
        return aggregate(stageName, () -> new BatchAggregator<T>(size, dropLast), StageOptions.defaults());
    }

    /**
     * Adds an aggregate stage with a custom aggregator (one thread).
     *
     * @param stageName the stage's name
     * @param factory   creates the aggregator, once per run
     * @param options   how it runs; concurrency must be 1
     * @param <R>       the aggregate type
     * @return the builder
     */
    @SuppressWarnings("unchecked") // items reaching this stage are T, as this builder's type proves
    public <R> PipelineBuilder<R> aggregate(String stageName,
                                            Supplier<? extends Aggregator<? super T, ? extends R>> factory,
                                            StageOptions options) {
        Objects.requireNonNull(factory, "factory");
        return then(new StageSpec.AggregateStage(stageName,
                (Supplier<? extends Aggregator<Object, ?>>) (Supplier<?>) factory, options));
    }

    /**
     * Splits each item, which must be an {@link Iterable} of {@code E}, into its elements (stage name
     * {@code disaggregate-<k>}). An item that is not iterable counts as a failed task.
     *
     * @param <E> the element type
     * @return the builder
     */
    public <E> PipelineBuilder<E> disaggregate() {
        return then(new StageSpec.DisaggregateStage("disaggregate-" + stages.size(), StageOptions.defaults()));
    }

    /**
     * Sets the consumer's buffer: the capacity of the last ring.
     *
     * @param bufferSize a power of two
     * @return the builder
     */
    public PipelineBuilder<T> sink(int bufferSize) {
        return sink(bufferSize, sinkWaitPolicy);
    }

    /**
     * Sets the consumer's buffer and how the consumer waits.
     *
     * @param bufferSize a power of two
     * @param policy     how {@link Pipeline#next(java.time.Duration)} waits
     * @return the builder
     */
    public PipelineBuilder<T> sink(int bufferSize, WaitPolicy policy) {
        return new PipelineBuilder<>(name, source, sourceWaitPolicy, sourceBatching, stages, bufferSize,
                Objects.requireNonNull(policy), onDiscard, sourceCpus, onFailure);
    }

    /**
     * Sets who is told of items the engine drops without delivering them when the pipeline stops (closed early, or
     * failed): items still in a ring or in the consumer's buffer, a result a stage produced but could not publish
     * any more, results waiting in a reorder window, results of async or virtual-thread tasks that complete after the
     * stop, and a result a sync task returned after its timeout. Use it to give back what items own (pooled memory,
     * files): with it, an early {@link Pipeline#close()} loses nothing.
     *
     * <p>Not called for an item whose stage function threw or was interrupted: the function owns its input until it
     * returns, and must clean up itself. Called on the closing thread for items left in rings (after every engine
     * thread has ended), and on a task's own thread for late completions, so it must be thread-safe; what it throws
     * is logged and ignored.
     *
     * @param hook takes each discarded item (of whatever type it had where it was dropped)
     * @return the builder
     */
    public PipelineBuilder<T> onDiscard(Consumer<Object> hook) {
        return new PipelineBuilder<>(name, source, sourceWaitPolicy, sourceBatching, stages, sinkBuffer,
                sinkWaitPolicy, Objects.requireNonNull(hook, "hook"), sourceCpus, onFailure);
    }

    /**
     * Sets who is told of each failure the pipeline counts, in any stage or the source ({@link FailureListener}):
     * to keep a list of bad samples, alert, or stop early on a policy of one's own.
     *
     * @param listener told of each failure; thread-safe
     * @return the builder
     */
    public PipelineBuilder<T> onFailure(FailureListener listener) {
        return new PipelineBuilder<>(name, source, sourceWaitPolicy, sourceBatching, stages,
                sinkBuffer, sinkWaitPolicy, onDiscard, sourceCpus, Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Validates the description.
     *
     * @return the immutable description
     * @throws IllegalArgumentException listing every problem found, each naming its stage
     */
    public PipelineSpec spec() {
        PipelineSpec spec = new PipelineSpec(name, SOURCE_NAME, source, sourceWaitPolicy, sourceBatching,
                sourceCpus, stages, sinkBuffer, sinkWaitPolicy, onDiscard, onFailure);
        PipelineValidator.validate(spec);
        return spec;
    }

    /**
     * Validates the description and allocates the pipeline's rings; starts no thread.
     *
     * @return the pipeline
     * @throws IllegalArgumentException listing every problem found
     */
    public Pipeline<T> build() {
        return new Pipeline<>(spec());
    }

    @SuppressWarnings("unchecked") // items reaching this stage are T, as this builder's type proves
    private static Function<Object, ?> erase(Function<?, ?> fn) {
        return (Function<Object, ?>) Objects.requireNonNull(fn, "fn");
    }

    private <R> PipelineBuilder<R> then(StageSpec stage) {
        List<StageSpec> next = new ArrayList<>(stages);
        next.add(stage);
        return new PipelineBuilder<>(name, source, sourceWaitPolicy, sourceBatching, List.copyOf(next), sinkBuffer,
                sinkWaitPolicy, onDiscard, sourceCpus, onFailure);
    }
}
