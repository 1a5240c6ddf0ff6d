package org.spdl4j.engine.runtime;

import java.time.Duration;
import java.util.List;

/**
 * How a closing pipeline stops its threads: interrupt each one (a stage function that blocks or sleeps wakes up),
 * join it, and interrupt it again every {@value #REINTERRUPT_MILLIS} ms in case it swallowed the interrupt, until it
 * ends or the deadline passes. Shared by item and record pipelines. Called by the closing thread only.
 */
public final class ThreadStopper {
    /** How often a thread that has not ended is interrupted again while joining it. */
    public static final long REINTERRUPT_MILLIS = 50;

    private ThreadStopper() {
    }

    /**
     * Interrupts and joins every thread until each has ended or {@code deadlineNanos} ({@link System#nanoTime()})
     * passes.
     *
     * @param threads       the threads to stop
     * @param deadlineNanos when to give up
     * @return whether every thread has ended
     * @throws InterruptedException when the closing thread itself is interrupted while joining
     */
    public static boolean interruptAndJoin(List<Thread> threads, long deadlineNanos) throws InterruptedException {
        for (Thread t : threads) {
            while (t.isAlive() && System.nanoTime() < deadlineNanos) {
                t.interrupt();
                t.join(Duration.ofMillis(REINTERRUPT_MILLIS));
            }
        }
        return threads.stream().noneMatch(Thread::isAlive);
    }

    /**
     * {@return where a thread that did not stop is, as {@code \n\tat frame} lines, for the error that names it}
     *
     * @param t the thread
     */
    public static String stackOf(Thread t) {
        StringBuilder sb = new StringBuilder();
        for (StackTraceElement e : t.getStackTrace()) {
            sb.append("\n\tat ").append(e);
        }
        return sb.toString();
    }
}
