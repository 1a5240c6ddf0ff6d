package org.spdl4j.examples.slots;

import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.spdl4j.engine.OutputOrder;

/**
 * An asynchronous stage a {@link SlotBatchLoader} runs before it assigns slots: turns each input (a URL) into an item
 * (its fetched bytes) without a thread per input. The engine keeps at most {@code concurrency} calls in flight
 * ({@code pipeAsync}); a call whose stage completes exceptionally fails only that input: the engine counts it on the
 * {@value #STAGE} stage and the run goes on.
 *
 * <p><b>Ownership:</b> the item a call delivers belongs to the loader, which releases it once it is written (or,
 * when the loader closes first, through the pipeline's discard hook: hence {@code itemType}, which tells an item
 * apart from the other objects the engine may discard).
 *
 * @param fetch       starts one input's fetch and returns at once; must be thread-safe
 * @param concurrency calls in flight at most, at least 1
 * @param itemType    the class of the items the fetch delivers
 * @param order       the order fetched items go on to slot assignment: {@code COMPLETION} (a slow request holds
 *                    nothing back) or {@code INPUT} (the inputs' order, so batches hold the same items run after run)
 * @param <S>         the input type
 * @param <I>         the item type
 */
public record FetchStage<S, I>(Function<? super S, ? extends CompletionStage<? extends I>> fetch, int concurrency,
                               Class<I> itemType, OutputOrder order) {
    /** The stage's name in the pipeline and its stats. */
    public static final String STAGE = "fetch";

    /** Checks the values. */
    public FetchStage {
        Objects.requireNonNull(fetch, "fetch");
        Objects.requireNonNull(itemType, "itemType");
        Objects.requireNonNull(order, "order");
        if (concurrency < 1) {
            throw new IllegalArgumentException("fetch concurrency must be >= 1, got " + concurrency);
        }
    }

    /**
     * A fetch stage whose items go on in completion order.
     *
     * @param fetch       starts one input's fetch and returns at once; must be thread-safe
     * @param concurrency calls in flight at most, at least 1
     * @param itemType    the class of the items the fetch delivers
     */
    public FetchStage(Function<? super S, ? extends CompletionStage<? extends I>> fetch, int concurrency,
                      Class<I> itemType) {
        this(fetch, concurrency, itemType, OutputOrder.COMPLETION);
    }
}
