package org.spdl4j.examples.slots;

import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.examples.StoppedPipelines;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.BatchDescriptor;

/**
 * A zero-copy batch loader for any sample kind: items -> assign (each its batch slot, in order; one thread) -> fill
 * (a {@link SlotWriter} decodes straight into the slot; many threads) -> off-heap batches laid out by a
 * {@link BatchDescriptor}: the {@link SlotStages} behind an item source. The video, audio and WebDataset examples are
 * this loader with their own writer; the URL loader puts an asynchronous {@link FetchStage} (HTTP) in front of
 * assign.
 *
 * <pre>
 *  source ──ring──> assign ──ring──> fill x N ──ring──> consumer
 *  (items)          claim slot,       writer.write(item, slot address) -> slot.complete(): the last one publishes
 *                   park item+label   the batch; release(item) gives back the item's memory
 *
 *  with a fetch stage: source (inputs) ──ring──> fetch (async, N in flight; failed: skipped) ──ring──> assign ...
 * </pre>
 *
 * <p><b>Ownership:</b> each {@link Batch} the iteration returns belongs to the consumer, which must
 * {@link Batch#close()} it; at most {@code batchesInFlight} exist, so a consumer that keeps them stalls the loader.
 * Each item is released exactly once, by the fill stage (or, if the loader stops early, by {@link #close()} from the
 * slot table, or by the {@link UndeliveredSlotReleaser} discard hook for an item still in a ring that never got a
 * slot).
 * {@link #close()} stops the pipeline (batches and unfilled slots it drops are closed or failed by that hook) and
 * frees the batch pool. <b>Threading:</b> iterate from one thread.
 *
 * @param <I> the item type
 */
public final class SlotBatchLoader<I> implements Iterable<Batch>, AutoCloseable {
    /** The fill stage's name in the pipeline and its stats. */
    public static final String FILL_STAGE = SlotStages.DEFAULT_FILL_STAGE;
    private static final int RING = 16;
    private final SlotStages<I> slots;
    private final Pipeline<Batch> pipeline;
    /** The fetch stage's stats, or null without one. */
    private final StageStats fetchStats;

    /**
     * Builds (does not start) the loader.
     *
     * @param name      pipeline name (thread names, stats)
     * @param items     the items in load order, iterated once
     * @param layout    the batch layout: batch size and one sample's type and shape
     * @param writer    writes one item's sample into its slot
     * @param labelOf   the label of an item (0 when there are none)
     * @param release   gives back what an item holds once it has been written (or failed); may do nothing
     * @param options   how it runs
     * @param allocator where batch memory comes from (direct, or pinned for GPU copies)
     */
    public SlotBatchLoader(String name, Iterable<? extends I> items, BatchDescriptor layout,
                           SlotWriter<? super I> writer, ToIntFunction<? super I> labelOf,
                           Consumer<? super I> release, SlotLoaderOptions options, MemoryAllocator allocator) {
        this(PipelineBuilder.<I>fromIterable(items).named(name).sourceWaitPolicy(options.waitPolicy())
                .onDiscard(UndeliveredSlotReleaser.<I>forSourceItems(release)), name, layout, writer, labelOf, release,
            options, allocator);
    }

    /**
     * Builds (does not start) a loader whose items are fetched asynchronously first: inputs -> {@code fetch}
     * ({@link FetchStage#concurrency()} in flight) -> assign -> fill. An input whose fetch fails is counted
     * ({@link #fetchFailures()}) and skipped; it never gets a slot.
     *
     * @param name      pipeline name (thread names, stats)
     * @param inputs    what to fetch, in order, iterated once
     * @param fetch     the asynchronous fetch of one input
     * @param layout    the batch layout: batch size and one sample's type and shape
     * @param writer    writes one item's sample into its slot
     * @param labelOf   the label of an item (0 when there are none)
     * @param release   gives back what an item holds once it has been written (or failed, or discarded at close)
     * @param options   how it runs
     * @param allocator where batch memory comes from (direct, or pinned for GPU copies)
     * @param <S>       the input type
     */
    public <S> SlotBatchLoader(String name, Iterable<? extends S> inputs, FetchStage<S, I> fetch,
                               BatchDescriptor layout, SlotWriter<? super I> writer,
                               ToIntFunction<? super I> labelOf, Consumer<? super I> release,
                               SlotLoaderOptions options, MemoryAllocator allocator) {
        this(PipelineBuilder.<S>fromIterable(inputs).named(name).sourceWaitPolicy(options.waitPolicy())
                .onDiscard(UndeliveredSlotReleaser.forItemsOf(fetch.itemType(), release))
                .<I>pipeAsync(FetchStage.STAGE, fetch.fetch(), StageOptions.defaults()
                    .withWaitPolicy(options.waitPolicy()).withRingCapacity(RING).withConcurrency(fetch.concurrency())
                    .withOrder(fetch.order())),
            name, layout, writer, labelOf, release, options, allocator);
    }

    private SlotBatchLoader(PipelineBuilder<I> head, String name, BatchDescriptor layout,
                            SlotWriter<? super I> writer, ToIntFunction<? super I> labelOf,
                            Consumer<? super I> release, SlotLoaderOptions options, MemoryAllocator allocator) {
        this.slots = SlotStages.<I>builder(name).fillStage(FILL_STAGE).layout(layout)
            .batchesInFlight(options.batchesInFlight()).dropLast(options.dropLast()).allocator(allocator)
            .writer(writer).labels(labelOf).release(release).open();
        try {
            this.pipeline = slots.append(head, StageOptions.defaults().withWaitPolicy(options.waitPolicy())
                        .withRingCapacity(RING), options.fillConcurrency(), UnaryOperator.identity())
                .sink(Integer.highestOneBit(options.batchesInFlight()), options.waitPolicy())
                .build();
        } catch (RuntimeException e) {
            slots.close();
            throw e;
        }
        this.fetchStats = pipeline.stats().stream().filter(s -> s.stage().equals(FetchStage.STAGE)).findFirst()
            .orElse(null);
    }

    /**
     * The label of sample {@code i} of a batch this loader produced (valid until the batch is closed).
     *
     * @param batch the batch
     * @param i     the sample index, below {@code batch.size()}
     * @return its label
     */
    public int label(Batch batch, int i) {
        return slots.label(batch, i);
    }

    /** {@return samples whose writer failed (each dropped from its batch) so far} */
    public long fillFailures() {
        return slots.fillFailures();
    }

    /**
     * {@return the cause of the first failed fetch, else of the first failed write, or {@code null} when nothing
     * failed}
     */
    public Throwable firstFailure() {
        Throwable fetchFailure = fetchStats == null ? null : fetchStats.firstFailure();
        return fetchFailure != null ? fetchFailure : slots.firstFillFailure();
    }

    /** {@return inputs whose fetch failed (each skipped) so far; 0 without a fetch stage} */
    public long fetchFailures() {
        return fetchStats == null ? 0 : fetchStats.failures();
    }

    /** {@return the running pipeline (stats, next with timeout)} */
    public Pipeline<Batch> pipeline() {
        return pipeline;
    }

    /** {@return per-stage statistics, source first, consumer last} */
    public List<StageStats> stats() {
        return pipeline.stats();
    }

    @Override
    public Iterator<Batch> iterator() {
        return pipeline.iterator();
    }

    /** Stops the pipeline, releases items it never filled, and frees the batch pool. */
    @Override
    public void close() {
        pipeline.close();
        if (StoppedPipelines.mayFree(pipeline, "slot batch loader '" + pipeline.spec().name() + "'",
                SlotStages.RESOURCES)) {
            slots.close(); // every stage thread has stopped: no fill worker can still take the parked items
        }
    }
}
