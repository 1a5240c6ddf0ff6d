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
     * passes. An interrupt of the closing thread itself (a training loop interrupted while it closes, or before:
     * try-with-resources closes with the flag still set) does not cut the stop short, since stopping every thread is
     * what lets the pipeline hand back what it holds: it is remembered, and the flag is set again on return.
     *
     * @param threads       the threads to stop
     * @param deadlineNanos when to give up
     * @return whether every thread has ended
     */
    public static boolean interruptAndJoin(List<Thread> threads, long deadlineNanos) {
        boolean interrupted = Thread.interrupted(); // a set flag would make every join below throw at once
        for (Thread t : threads) {
            while (t.isAlive() && System.nanoTime() < deadlineNanos) {
                t.interrupt();
                try {
                    t.join(Duration.ofMillis(REINTERRUPT_MILLIS));
                } catch (InterruptedException e) {
                    interrupted = true; // asked to hurry: the deadline still bounds the wait
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
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
