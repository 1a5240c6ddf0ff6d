package org.spdl4j.perf.engine;

import org.jctools.queues.SpscArrayQueue;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The engine echo's shape with a JCTools SPSC queue for the hop back: the benchmark thread's request is a volatile
 * write that the echo thread spins on ({@link RequestedItems}, as the engine's source does), and the item comes back
 * through the queue, the benchmark thread busy-spinning on poll. So every variant's round trip is the same request
 * hop plus the hop under test.
 */
@State(Scope.Benchmark)
public class SpscEcho {
    final RequestedItems requests = new RequestedItems();
    final SpscArrayQueue<Item> pong = new SpscArrayQueue<>(ItemPipeline.CAPACITY);
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
            Item it;
            while ((it = requests.get()) != null) { // spins until requested; null once stopped
                pong.offer(it);
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
        requests.stop();
        echo.join(5_000);
    }
}
