package org.spdl4j.perf.engine;

/**
 * A running source -> map(+1) -> map(*3) -> consumer pipeline of {@link Item}s, the shape every throughput variant
 * shares. The source produces endlessly into the first link (blocking or idling when it is full); the benchmark
 * thread is the consumer.
 */
interface ItemPipeline {
    /** Link capacity of every variant (slots between two stages). */
    int CAPACITY = 1024;
    /** Item pool size: a power of two above 3 links x {@link #CAPACITY} + one item per thread. */
    int POOL = 8192;

    /**
     * Takes the next item, waiting for it (consumer thread only).
     *
     * @return the item's value (the item itself goes back to the source's pool)
     * @throws InterruptedException when interrupted while waiting
     */
    long take() throws InterruptedException;

    /**
     * Stops every thread the pipeline started and waits for them.
     *
     * @throws InterruptedException when interrupted while waiting
     */
    void stop() throws InterruptedException;
}
