package org.spdl4j.engine;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Polling for a figure or a state another thread moves, for tests that read a running pipeline: its stats, whether it
 * has terminated, what its discard hook has seen. The calling thread polls; the thread that moves the figure is not
 * told.
 */
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

    /**
     * Polls {@code condition} every millisecond until it holds, failing the test once {@code timeout} has passed
     * without it. The condition is read on the calling thread, so what it reads must be safe to read from there
     * (an atomic, a volatile, a thread-safe stat).
     *
     * @param what what the condition says, for the failure message: "the pipeline terminated"
     * @param condition the condition to wait for
     * @param timeout how long to wait for it
     * @throws AssertionError naming {@code what} if the condition still did not hold when {@code timeout} passed
     * @throws InterruptedException if interrupted while polling
     */
    public static void awaitTrue(String what, BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("Timed out after " + timeout + " waiting for: " + what);
            }
            Thread.sleep(1);
        }
    }
}
