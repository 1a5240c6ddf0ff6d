package org.spdl4j.perf.engine;

import org.jctools.queues.SpscArrayQueue;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * JCTools SPSC queues both ways, both threads busy-spinning on poll. */
@State(Scope.Benchmark)
public class SpscEcho {
    final SpscArrayQueue<Item> ping = new SpscArrayQueue<>(ItemPipeline.CAPACITY);
    final SpscArrayQueue<Item> pong = new SpscArrayQueue<>(ItemPipeline.CAPACITY);
    volatile boolean running = true;
    Thread echo;

    /**
     * Starts the echo thread.
     *
     * @param pins where the echo thread runs
     */
    @Setup(Level.Trial)
    public void start(PinnedCpus pins) {
        echo = Thread.ofPlatform().name("jctools-echo").daemon(true).start(() -> {
            pins.pinEchoThread();
            while (running) {
                Item it = ping.relaxedPoll();
                if (it == null) {
                    Thread.onSpinWait();
                } else {
                    pong.offer(it);
                }
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
        running = false;
        echo.join(5_000);
    }
}
