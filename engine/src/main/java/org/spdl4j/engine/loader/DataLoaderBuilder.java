package org.spdl4j.engine.loader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import org.spdl4j.engine.BatchAggregator;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.WaitPolicy;

/**
 * Describes a {@link DataLoader}: source -> preprocess (many threads) -> batch -> collate -> transfer (async) -> buffer.
 * Each step is optional except the source. Order and wait policy apply to every stage, whenever they are set; so
 * {@code .order(INPUT)} may come last.
 *
 * <p>Defaults (good on the machine it runs on): preprocess concurrency = available processors, output order
 * {@code COMPLETION} (no head-of-line blocking), backoff waiting, buffer of 4 batches, timeout 5 minutes.
 * <b>Not thread-safe</b>; immutable steps, so a builder may be extended twice.
 *
 * @param <T> the type the steps so far produce
 */
public final class DataLoaderBuilder<T> {
    /** Default timeout for each batch. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
    /** Default consumer buffer, in batches. */
    public static final int DEFAULT_BUFFER = 4;

    private final Iterable<?> source;
    private final List<Step> steps;
    private String name = "loader";
    private OutputOrder order = OutputOrder.COMPLETION;
    private WaitPolicy waitPolicy = EngineConfiguration.DEFAULT_WAIT_POLICY;
    private int bufferSize = DEFAULT_BUFFER;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Duration taskTimeout;
    private Consumer<Object> onDiscard = DataLoaderBuilder::closeDiscarded;

    /** One stage, added to the pipeline at build time with the final options. */
    private interface Step {
        PipelineBuilder<?> addTo(PipelineBuilder<Object> b, StageOptions base, StageOptions timed);
    }

    private DataLoaderBuilder(Iterable<?> source, List<Step> steps, DataLoaderBuilder<?> settings) {
        this.source = source;
        this.steps = steps;
        if (settings != null) {
            this.name = settings.name;
            this.order = settings.order;
            this.waitPolicy = settings.waitPolicy;
            this.bufferSize = settings.bufferSize;
            this.timeout = settings.timeout;
            this.taskTimeout = settings.taskTimeout;
            this.onDiscard = settings.onDiscard;
        }
    }

    static <S> DataLoaderBuilder<S> from(Iterable<? extends S> source) {
        return new DataLoaderBuilder<>(Objects.requireNonNull(source, "source"), List.of(), null);
    }

    private <R> DataLoaderBuilder<R> then(Step step) {
        List<Step> next = new ArrayList<>(steps);
        next.add(step);
        return new DataLoaderBuilder<>(source, List.copyOf(next), this);
    }

    @SuppressWarnings("unchecked") // stages are typed by this builder's chain; the pipeline erases them internally
    private static Function<Object, Object> erase(Function<?, ?> fn) {
        return (Function<Object, Object>) Objects.requireNonNull(fn, "function");
    }

    /**
     * Preprocesses each sample on {@code Runtime.availableProcessors()} threads.
     *
     * @param fn  the work per sample; returning {@code null} drops it, throwing counts a failure
     * @param <R> its result
     * @return the extended builder
     */
    public <R> DataLoaderBuilder<R> preprocess(Function<? super T, ? extends R> fn) {
        return preprocess(fn, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Preprocesses each sample on {@code concurrency} threads.
     *
     * @param fn          the work per sample
     * @param concurrency worker threads
     * @param <R>         its result
     * @return the extended builder
     */
    public <R> DataLoaderBuilder<R> preprocess(Function<? super T, ? extends R> fn, int concurrency) {
        Function<Object, Object> f = erase(fn);
        String stage = "preprocess-" + steps.size();
        return then((b, base, timed) -> b.pipe(stage, f, timed.withConcurrency(concurrency)));
    }

    /**
     * Preprocesses with a blocking function on virtual threads, {@code inFlight} at once (I/O: files, HTTP).
     *
     * @param fn       the blocking work per sample
     * @param inFlight tasks in flight
     * @param <R>      its result
     * @return the extended builder
     */
    public <R> DataLoaderBuilder<R> preprocessBlocking(Function<? super T, ? extends R> fn, int inFlight) {
        Function<Object, Object> f = erase(fn);
        String stage = "io-" + steps.size();
        return then((b, base, timed) -> b.pipeVirtual(stage, f, timed.withConcurrency(inFlight)));
    }

    /**
     * Groups samples into lists of {@code size}.
     *
     * @param size     samples per batch, at least 1
     * @param dropLast drop a shorter last batch
     * @return the extended builder
     * @throws IllegalArgumentException if {@code size} is below 1
     */
    public DataLoaderBuilder<List<T>> batch(int size, boolean dropLast) {
        String stage = "batch-" + steps.size();
        if (size < 1) { // here, not in build() where the aggregator's own message would not name the step
            throw new IllegalArgumentException("data loader step '" + stage + "': batch size " + size
                    + " must be at least 1");
        }
        // The loader's order and wait policy, like every other stage (an aggregator runs on one thread).
        return then((b, base, timed) -> b.aggregate(stage, () -> new BatchAggregator<Object>(size, dropLast),
                base.withConcurrency(1)));
    }

    /**
     * Turns each batch into its final form (a tensor, say) on one thread.
     *
     * @param fn  the collate function
     * @param <R> its result
     * @return the extended builder
     */
    public <R> DataLoaderBuilder<R> collate(Function<? super T, ? extends R> fn) {
        Function<Object, Object> f = erase(fn);
        String stage = "collate-" + steps.size(); // by position, like every step: two collate steps may follow
        return then((b, base, timed) -> b.pipe(stage, f, timed.withConcurrency(1)));
    }

    /**
     * Moves each batch to its device with an asynchronous copy, {@code inFlight} at once.
     *
     * @param fn       starts the copy; the stage completes when the batch is on the device
     * @param inFlight copies in flight
     * @param <R>      the device batch type
     * @return the extended builder
     */
    public <R> DataLoaderBuilder<R> transfer(Function<? super T, ? extends CompletionStage<? extends R>> fn,
                                            int inFlight) {
        Objects.requireNonNull(fn, "fn");
        @SuppressWarnings("unchecked") // typed by the builder chain
        Function<Object, CompletionStage<?>> f = (Function<Object, CompletionStage<?>>) (Function<?, ?>) fn;
        String stage = "transfer-" + steps.size();
        return then((b, base, timed) -> b.pipeAsync(stage, f, base.withConcurrency(inFlight)));
    }

    /**
     * Names the loader (thread names and stats).
     *
     * @param loaderName the name
     * @return this builder
     */
    public DataLoaderBuilder<T> named(String loaderName) {
        this.name = Objects.requireNonNull(loaderName, "name");
        return this;
    }

    /**
     * Sets the output order of every stage: {@code COMPLETION} (default) or {@code INPUT} (source order exactly).
     *
     * @param outputOrder the order
     * @return this builder
     */
    public DataLoaderBuilder<T> order(OutputOrder outputOrder) {
        this.order = Objects.requireNonNull(outputOrder, "order");
        return this;
    }

    /**
     * Sets how every stage waits (default {@link EngineConfiguration#DEFAULT_WAIT_POLICY}: BACKOFF unless
     * {@value EngineConfiguration#WAIT_POLICY_PROP} names another).
     *
     * @param policy the policy
     * @return this builder
     */
    public DataLoaderBuilder<T> waitPolicy(WaitPolicy policy) {
        this.waitPolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * Sets how many finished batches wait for the consumer (a power of two; default 4).
     *
     * @param batches the buffer size
     * @return this builder
     */
    public DataLoaderBuilder<T> bufferSize(int batches) {
        this.bufferSize = batches;
        return this;
    }

    /**
     * Sets how long the iterator waits for each batch before throwing {@link DataLoaderTimeoutException}.
     *
     * @param perBatch the bound, positive ({@code ChronoUnit.FOREVER.getDuration()} for no bound)
     * @return this builder
     * @throws IllegalArgumentException if {@code perBatch} is zero or negative: every batch not ready at the very
     *                                  moment it is asked for would time out
     */
    public DataLoaderBuilder<T> timeout(Duration perBatch) {
        Objects.requireNonNull(perBatch, "timeout");
        if (perBatch.isNegative() || perBatch.isZero()) {
            throw new IllegalArgumentException("data loader timeout " + perBatch + " must be positive (it bounds the "
                    + "wait for each batch); use ChronoUnit.FOREVER.getDuration() for no bound");
        }
        this.timeout = perBatch;
        return this;
    }

    /**
     * Sets the longest one preprocess or collate task may run (default none): past it the task is interrupted, its
     * item counts as failed, and the engine's watchdog logs it then (stage, item, time run) and again, with the
     * worker's stack, if the task ignores the interrupt. Set it well below {@link #timeout}, so a stuck task is
     * named in the log before the iterator gives up.
     *
     * @param perTask the bound, positive, or {@code null} for none
     * @return this builder
     */
    public DataLoaderBuilder<T> taskTimeout(Duration perTask) {
        if (perTask != null && (perTask.isNegative() || perTask.isZero())) {
            throw new IllegalArgumentException("data loader task timeout " + perTask + " must be positive (or null"
                    + " for none)");
        }
        this.taskTimeout = perTask;
        return this;
    }

    /**
     * Sets what happens to items the loader drops when it is closed before the end (items in its rings, late async
     * results; see {@link PipelineBuilder#onDiscard}). The default closes every {@link AutoCloseable} item, and every
     * {@code AutoCloseable} element of a discarded batch ({@link Iterable}), so pooled samples and open files go back
     * when a training loop stops early.
     *
     * @param hook takes each discarded item; thread-safe; what it throws is logged and ignored
     * @return this builder
     */
    public DataLoaderBuilder<T> onDiscard(Consumer<Object> hook) {
        this.onDiscard = Objects.requireNonNull(hook, "hook");
        return this;
    }

    /** The default discard hook: closes what can be closed, a batch's elements included. */
    static void closeDiscarded(Object item) {
        IllegalStateException failed = null;
        if (item instanceof AutoCloseable c) {
            failed = close(c, null);
        } else if (item instanceof Iterable<?> batch) {
            for (Object element : batch) { // every element, even after one fails to close
                if (element instanceof AutoCloseable c) {
                    failed = close(c, failed);
                }
            }
        }
        if (failed != null) {
            throw failed; // logged by the engine
        }
    }

    /** Closes one item; a failure is returned (or added to the earlier one) rather than thrown. */
    private static IllegalStateException close(AutoCloseable c, IllegalStateException earlier) {
        try {
            c.close();
            return earlier;
        } catch (Exception e) {
            if (earlier != null) {
                earlier.addSuppressed(e);
                return earlier;
            }
            return new IllegalStateException("closing a discarded item failed: " + e, e);
        }
    }

    /**
     * Validates and builds the loader (not started: iteration starts it).
     *
     * @return the loader
     * @throws IllegalArgumentException naming every problem found
     */
    @SuppressWarnings("unchecked") // the steps' types chain from the source's type to T
    public DataLoader<T> build() {
        StageOptions base = StageOptions.defaults().withOrder(order).withWaitPolicy(waitPolicy);
        PipelineBuilder<Object> b = PipelineBuilder.fromIterable((Iterable<Object>) source).named(name)
            .sourceWaitPolicy(waitPolicy).onDiscard(onDiscard);
        for (Step step : steps) {
            b = (PipelineBuilder<Object>) step.addTo(b, base, taskTimeout == null ? base
                : base.withTaskTimeout(taskTimeout));
        }
        return new DataLoader<>((org.spdl4j.engine.Pipeline<T>) (Object) b.sink(bufferSize, waitPolicy).build(),
            timeout, onDiscard);
    }
}
