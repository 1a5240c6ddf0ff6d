package org.spdl4j.engine;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/** Polling for a figure another thread moves, for tests that read stats while a pipeline runs. */
public final class Polling {
    private Polling() {
    }

    /**
     * Polls {@code value} every millisecond until it reaches {@code least} or 10 s pass.
     *
     * @param value the figure to read
     * @param least the value to wait for
     * @return the last reading (below {@code least} only when 10 s passed: the caller's assertion then fails)
     * @throws InterruptedException if interrupted while polling
     */
    public static long awaitAtLeast(LongSupplier value, long least) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long v = value.getAsLong();
        while (v < least && System.nanoTime() < deadline) {
            Thread.sleep(1);
            v = value.getAsLong();
        }
        return v;
    }
}
