package org.spdl4j.engine.runtime;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands every item the engine drops undelivered (the pipeline stopped while the item was in a ring, in a worker's
 * hand, in a reorder window or in a late task) to the pipeline's discard hook, so its owner can give back what the
 * item holds. A hook that throws is logged and the sweep goes on.
 *
 * <p><b>Threading:</b> any thread, concurrently (late task completions call it on their own threads).
 * <b>Allocation:</b> none per item beyond the hook's own; only on the stop path, never per delivered item.
 */
final class Discarder {
    private static final Logger LOG = LoggerFactory.getLogger(Discarder.class);

    private final String pipeline;
    private final Consumer<Object> hook;
    private final LongAdder discarded = new LongAdder();
    /** The discarder whose hook this thread runs now, if any: a close() of that pipeline from its hook must not wait. */
    private static final ThreadLocal<Discarder> IN_HOOK = new ThreadLocal<>();

    Discarder(String pipeline, Consumer<Object> hook) {
        this.pipeline = pipeline;
        this.hook = hook;
    }

    /**
     * Gives one dropped item to the hook.
     *
     * @param item the item, ignored when {@code null}
     */
    void discard(Object item) {
        if (item == null) {
            return;
        }
        discarded.increment();
        Discarder outer = IN_HOOK.get();
        IN_HOOK.set(this);
        try {
            hook.accept(item);
        } catch (RuntimeException e) {
            LOG.warn("pipeline '{}': the discard hook threw on {}; what the item holds may be lost", pipeline,
                    item.getClass().getName(), e);
        } finally {
            IN_HOOK.set(outer);
        }
    }

    /** {@return whether the calling thread is inside this discarder's hook (a nested hook of another counts not)} */
    boolean isCallingThreadInHook() {
        return IN_HOOK.get() == this;
    }

    /** {@return items discarded so far} */
    long count() {
        return discarded.sum();
    }
}
