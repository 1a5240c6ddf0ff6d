package org.spdl4j.perf.engine;

import java.util.function.Supplier;

/**
 * A source for latency runs: hands out one item each time the benchmark thread raises {@link #request()}, spinning
 * until then (on the source thread). Ends (returns {@code null}) once {@link #stop()} is called, so the pipeline can
 * close.
 *
 * <p><b>Memory ordering:</b> {@code requested} is volatile: the benchmark thread's write is the "ping"; the engine's
 * ring publication of the returned item is the "pong".
 *
 * <p><b>Layout:</b> the request hop must cost what one hop of {@code volatileFlag} costs, so the line holding
 * {@code requested} (and the benchmark thread's own {@code sent}) is written by the benchmark thread only: the echo
 * thread's counter {@code served} lives on lines of its own (padding by class hierarchy, whose fields HotSpot lays out
 * superclass first). With {@code served} beside {@code requested}, every echo's {@code served++} took the line away
 * from the benchmark thread, whose next {@code request()} had to fetch it back: one more line transfer per round trip
 * in every variant using this class, none in the floor.
 */
final class RequestedItems extends RequestedItemsFields implements Supplier<Item> {
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

/** Leading padding: keeps the request line off whatever the heap placed before this object. */
abstract class RequestedItemsPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The benchmark thread's line: it writes both; the echo thread only reads {@code requested} (and {@code running}). */
abstract class RequestedItemsRequest extends RequestedItemsPad0 {
    /** Written by the benchmark thread, spun on by the echo thread. */
    volatile long requested;
    /** Benchmark thread only. */
    long sent;
    /** Written once, by stop(). */
    volatile boolean running = true;
}

/** Padding between the two threads' lines (two lines: adjacent-line prefetch pairs lines). */
abstract class RequestedItemsPad1 extends RequestedItemsRequest {
    long q10, q11, q12, q13, q14, q15, q16, q17, q18, q19, q1a, q1b, q1c, q1d, q1e, q1f;
}

/** The echo thread's line. */
abstract class RequestedItemsFields extends RequestedItemsPad1 {
    /** Echo (source) thread only. */
    long served;
    /** The item handed out every time (read-only after construction). */
    final Item token = new Item();
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}
