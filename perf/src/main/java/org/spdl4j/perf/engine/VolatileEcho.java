package org.spdl4j.perf.engine;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The hardware floor: two volatile fields, each thread spinning on the other's. One op = two cache-line hops.
 */
@State(Scope.Benchmark)
public class VolatileEcho {
    volatile long ping;
    volatile long pong;
    volatile boolean running = true;
    long sent;
    Thread echo;

    /**
     * Starts the echo thread.
     *
     * @param pins where the echo thread runs
     */
    @Setup(Level.Trial)
    public void start(PinnedCpus pins) {
        echo = Thread.ofPlatform().name("volatile-echo").daemon(true).start(() -> {
            pins.pinEchoThread();
            long seen = 0;
            while (running) {
                long p = ping;
                if (p == seen) {
                    Thread.onSpinWait();
                } else {
                    seen = p;
                    pong = p;
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
