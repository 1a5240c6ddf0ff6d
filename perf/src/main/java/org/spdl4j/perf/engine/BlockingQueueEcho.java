package org.spdl4j.perf.engine;

import java.util.concurrent.ArrayBlockingQueue;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * ArrayBlockingQueue both ways, blocking put/take (park/unpark when the other side waits). */
@State(Scope.Benchmark)
public class BlockingQueueEcho {
    final ArrayBlockingQueue<Item> ping = new ArrayBlockingQueue<>(ItemPipeline.CAPACITY);
    final ArrayBlockingQueue<Item> pong = new ArrayBlockingQueue<>(ItemPipeline.CAPACITY);
    Thread echo;

    /**
     * Starts the echo thread.
     *
     * @param pins where the echo thread runs
     */
    @Setup(Level.Trial)
    public void start(PinnedCpus pins) {
        echo = Thread.ofPlatform().name("abq-echo").daemon(true).start(() -> {
            pins.pinEchoThread();
            try {
                while (true) {
                    pong.put(ping.take());
                }
            } catch (InterruptedException e) {
                // stop
            }
        });
    }

    /**
     * Stops it.
     *
     * @throws InterruptedException when interrupted
     */
    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        echo.interrupt();
        echo.join(5_000);
    }
}
