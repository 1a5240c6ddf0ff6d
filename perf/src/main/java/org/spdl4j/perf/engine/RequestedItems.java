package org.spdl4j.perf.engine;

import java.util.function.Supplier;

/**
 * A source for latency runs: hands out one item each time the benchmark thread raises {@link #request()}, spinning
 * until then (on the source thread). Ends (returns {@code null}) once {@link #stop()} is called, so the pipeline can
 * close.
 *
 * <p><b>Memory ordering:</b> {@code requested} is volatile: the benchmark thread's write is the "ping"; the engine's
 * ring publication of the returned item is the "pong".
 */
final class RequestedItems implements Supplier<Item> {
    private final Item token = new Item();
    private volatile long requested;
    private volatile boolean running = true;
    /** Source thread only. */
    private long served;
    /** Benchmark thread only. */
    private long sent;

    /** Asks for one more item (benchmark thread only). */
    void request() {
        requested = ++sent;
    }

    /** Makes {@link #get()} return {@code null} (end of stream) instead of spinning on. */
    void stop() {
        running = false;
    }

    @Override
    public Item get() {
        while (requested == served) {
            if (!running) {
                return null;
            }
            Thread.onSpinWait();
        }
        served++;
        return token;
    }
}
