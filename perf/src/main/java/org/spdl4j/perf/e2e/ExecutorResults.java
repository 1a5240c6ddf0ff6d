package org.spdl4j.perf.e2e;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The consumer side of the executor baselines: takes decoded samples from their bounded queue and hands batches of
 * {@link ImageWork#BATCH} on. A sample whose decode failed arrives as {@link #FAILED}: it is counted and left out of
 * its batch, so one bad image costs one sample, as in spdl4j's loader, and a run on real photographs goes on.
 */
final class ExecutorResults {
    /** What a task puts on the queue for an image it could not decode. */
    static final byte[] FAILED = new byte[0];

    private ExecutorResults() {
    }

    /**
     * Takes {@code count} results and hands on their batches.
     *
     * @param done     the tasks' queue
     * @param count    results to take
     * @param consumer receives each batch's size
     * @return the images that failed
     * @throws InterruptedException when interrupted
     */
    static int drain(BlockingQueue<byte[]> done, int count, Contender.BatchConsumer consumer) throws InterruptedException {
        int failed = 0;
        int inBatch = 0;
        for (int i = 0; i < count; i++) {
            byte[] sample = done.poll(60, TimeUnit.SECONDS);
            if (sample == null) {
                throw new IllegalStateException("no result for 60 s: a decode task hangs");
            }
            if (sample == FAILED) {
                failed++;
            } else {
                inBatch++;
            }
            if (inBatch == ImageWork.BATCH || (i == count - 1 && inBatch > 0)) {
                consumer.accept(inBatch);
                inBatch = 0;
            }
        }
        return failed;
    }
}
