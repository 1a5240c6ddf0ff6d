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
     * If this method throws, the exception propagates to the thread that completed the batch, and the batch is
     * <em>not</em> closed for it: the consumer may have handed it on before it threw, and closing it then would
     * free memory its new owner still reads (and, once the object was reused, close the next batch). A consumer
     * that throws before handing the batch on must close it itself; otherwise its lease stays out, and leak
     * detection names it.
     *
     * @param batch the batch, holding only its surviving samples, in input order
     */
    void onBatch(Batch batch);
}
