package org.spdl4j.offheap.batch;

/**
 * Receives each completed batch. Called on the thread that completed the batch's last slot (a producer) or on the
 * claiming thread when it seals a batch whose slots are all done, so it must be quick: hand the batch on (to a ring,
 * a queue, a GPU copy) and return.
 */
@FunctionalInterface
public interface BatchConsumer {
    /**
     * Takes ownership of a batch; the consumer (or whoever it hands the batch to) must {@link Batch#close()} it.
     * If this method throws, the batch is closed for it (unless it already was) and the exception propagates to
     * the thread that completed the batch.
     *
     * @param batch the batch, holding only its surviving samples, in input order
     */
    void onBatch(Batch batch);
}
