package org.spdl4j.engine.runtime;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.spdl4j.engine.EngineConfiguration;

/**
 * What item and record pipelines share in closing: the closer thread a pipeline's own thread hands its close to
 * ({@link #startCloser}), and a second {@code close()}'s wait for the first: until the first close has
 * finished (threads joined, leftovers swept, memory freed), then until its closer thread, if it used one, has ended,
 * so that what the caller frees next is no longer in use. Bounded (the close timeout plus 30 s for the sweep and the
 * source's close), so a caller is never held forever: a lock held around close() that a discard hook needs, or two
 * pipelines whose hooks close each other, would otherwise wait for good.
 *
 * <p><b>Threading:</b> any thread but the pipeline's own (callers check that first). An interrupt is kept for the
 * caller (set again on return) and the wait goes on. <b>Allocation:</b> none worth counting; close paths only.
 */
public final class CloseWait {
    private CloseWait() {
    }

    /**
     * Waits for the first close.
     *
     * @param closeFinished opened once the first close has finished
     * @param closer        the first close's closer thread, read after that ({@code null} when it used none)
     * @param onGiveUp      told the bound in milliseconds when the wait gives up; logs who closes and where
     */
    public static void awaitFirst(CountDownLatch closeFinished, Supplier<Thread> closer, LongConsumer onGiveUp) {
        long bound = TimeUnit.MILLISECONDS.toNanos(EngineConfiguration.CLOSE_TIMEOUT_MILLIS)
                + TimeUnit.SECONDS.toNanos(30);
        long deadline = System.nanoTime() + bound;
        boolean interrupted = false;
        boolean finished = false;
        while (!finished) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                onGiveUp.accept(TimeUnit.NANOSECONDS.toMillis(bound));
                break;
            }
            try {
                finished = closeFinished.await(left, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        Thread c = closer.get();
        while (finished && c != null && c.isAlive()) { // it has finished its work: its thread ends in a moment
            try {
                c.join(Duration.ofMillis(100));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts the thread that closes a pipeline for one of its own threads, which cannot join itself: named
     * {@code spdl4j-<pipeline>-closer}, a daemon.
     *
     * @param pipeline  the pipeline's name
     * @param closeNow  joins the pipeline's threads, sweeps or frees, and opens the close latch
     * @param published told the thread before it starts, so a later close() that waits for it joins it too
     */
    public static void startCloser(String pipeline, Runnable closeNow, java.util.function.Consumer<Thread> published) {
        Thread t = Thread.ofPlatform().name("spdl4j-" + pipeline + "-closer").daemon(true).unstarted(closeNow);
        published.accept(t);
        t.start();
    }
}
