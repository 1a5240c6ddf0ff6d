package org.spdl4j.examples.slots;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchAssembler;

/**
 * Zero-copy slot assembly as two pipeline stages, and what they share: the batch pool, the {@link BatchAssembler},
 * the {@link InFlightTable} of items and labels, and the fill function. Every slot loader is these stages behind its
 * own front stages: {@link SlotBatchLoader} (items, or fetched items), and the image loaders (read in front, fill
 * named "decode"). Described by a {@link #builder(String) builder}:
 *
 * <pre>{@code
 * SlotStages<Item> slots = SlotStages.<Item>builder("train").fillStage("decode").layout(layout)
 *     .batchesInFlight(4).writer(writer).labels(Item::label).release(items::release).open();
 * }</pre>
 *
 * <pre>
 *  ... ──ring──> assign (1 thread) ──ring──> fill x N ──ring──> ...
 *     items       claim a slot, park item     writer.write(item, slot address); release(item);
 *                 + label at the slot         slot.complete(): the last one returns the batch
 * </pre>
 *
 * <p><b>Ownership:</b> each item is released exactly once: by the fill stage once written (or failed), by
 * {@link #close()} for one still parked at its slot, or by the {@link UndeliveredSlotReleaser} hook for one the
 * pipeline drops before assign. <b>Allocation:</b> none per item or batch (preallocated batches, slots and tables).
 * <b>Threading:</b> build from one thread; the stages then run on the engine's; {@link #label} from the consumer.
 *
 * @param <I> the item type
 */
public final class SlotStages<I> implements AutoCloseable {
    /** The assign stage's name in the pipeline and its stats. */
    public static final String ASSIGN_STAGE = "assign";
    /** What {@link #close()} frees, for the message when a loader must leak it instead. */
    public static final String RESOURCES = "its unfilled items, batch assembler and batch pool";
    /** The fill stage's name unless {@link SlotStagesBuilder#fillStage} sets another. */
    public static final String DEFAULT_FILL_STAGE = "fill";
    /** Batches allocated at once unless {@link SlotStagesBuilder#batchesInFlight} sets another. */
    public static final int DEFAULT_BATCHES_IN_FLIGHT = 4;

    private static final Logger LOG = LoggerFactory.getLogger(SlotStages.class);

    private final String name;
    private final BufferPool batchPool;
    private final BatchAssembler assembler;
    private final InFlightTable<I> table;
    private final Consumer<? super I> release;
    private final AssignSlots<I> assign;
    private final String fillStage;
    private final FillSlots<I> fill;

    /** Opens the batch pool and the assembler; {@link SlotStagesBuilder#open()} checked the parts. */
    SlotStages(SlotStagesBuilder<I> b) {
        this.name = b.name;
        this.release = b.release;
        this.batchPool = BufferPool.open(PoolConfig.builder(b.name + "-batches").allocator(b.allocator).dmaAligned()
            .sizeClass(b.layout.batchBytes(), b.batchesInFlight).acquireTimeout(Duration.ofSeconds(600)).build());
        try {
            this.assembler = BatchAssembler.builder(batchPool, b.layout).dropLast(b.dropLast)
                .batchesInFlight(b.batchesInFlight).acquireTimeout(Duration.ofSeconds(600)).build();
        } catch (RuntimeException e) {
            batchPool.close();
            throw e;
        }
        this.table = new InFlightTable<>(assembler.batchesInFlight(), b.layout.batchSize());
        this.assign = new AssignSlots<>(assembler, table, b.labelOf, release);
        this.fillStage = b.fillStage;
        this.fill = new FillSlots<>(b.name + ":" + b.fillStage, table, b.writer, release);
    }

    /**
     * Starts describing slot stages. Required: {@link SlotStagesBuilder#layout} and
     * {@link SlotStagesBuilder#writer}; the rest has defaults.
     *
     * @param name the pipeline's name: prefix of the pool's name, and of failed samples in the log
     * @param <I>  the item type
     * @return a builder
     */
    public static <I> SlotStagesBuilder<I> builder(String name) {
        return new SlotStagesBuilder<>(name);
    }

    /**
     * Appends assign and fill to a pipeline. The fill function's input is a slot or, once at end of stream, the
     * partial last batch the assign stage's flush completed; it returns a batch when one completes, else
     * {@code null}.
     *
     * @param head            the stages that deliver the items (the caller set its discard hook)
     * @param base            options both stages start from (wait policy, ring size, order)
     * @param fillConcurrency fill workers (CPU-bound: about one per core)
     * @param wrapFill        wraps the fill function (task tracing, JFR events); {@link UnaryOperator#identity()}
     *                        for none
     * @return the builder, yielding batches; the caller adds its own stages and the sink
     */
    public PipelineBuilder<Batch> append(PipelineBuilder<I> head, StageOptions base, int fillConcurrency,
                                         UnaryOperator<Function<Object, Batch>> wrapFill) {
        return head.aggregate(ASSIGN_STAGE, () -> assign, base.withConcurrency(1))
            .pipe(fillStage, wrapFill.apply(fill), base.withConcurrency(fillConcurrency));
    }

    /**
     * The label of sample {@code i} of a batch these stages produced (valid until the batch is closed).
     *
     * @param batch the batch
     * @param i     the sample index, below {@code batch.size()}
     * @return its label
     */
    public int label(Batch batch, int i) {
        return table.label(batch, i);
    }

    /** {@return samples whose writer failed (each dropped from its batch) so far} */
    public long fillFailures() {
        return fill.failures();
    }

    /** {@return what the first failed write threw (it names the sample), or {@code null} when none failed} */
    public Throwable firstFillFailure() {
        return fill.firstFailure();
    }

    /**
     * Releases the items still parked at their slots (a release that throws is logged, and the others still go
     * back) and frees the assembler and the batch pool, whatever fails first. Call only once
     * every stage thread has stopped (after the pipeline closed, {@link org.spdl4j.examples.StoppedPipelines}).
     */
    @Override
    public void close() {
        try {
            table.drain(this::releaseParked); // no fill worker can still take these
        } finally {
            try {
                assembler.close();
            } finally {
                batchPool.close();
            }
        }
    }

    /** Releases an item parked at its slot; one whose release throws is logged and the others still go back. */
    private void releaseParked(I item) {
        try {
            release.accept(item);
        } catch (RuntimeException e) {
            LOG.error("{}: releasing unfilled item {} at close failed; what it holds may leak", name, item, e);
        }
    }
}
