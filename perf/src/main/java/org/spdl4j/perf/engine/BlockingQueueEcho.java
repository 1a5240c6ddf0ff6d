package org.spdl4j.perf.engine;

import java.util.concurrent.ArrayBlockingQueue;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The engine echo's shape with an ArrayBlockingQueue for the hop back: the request is a volatile write the echo
 * thread spins on ({@link RequestedItems}), and the item comes back by {@code put}, the benchmark thread blocking in
 * {@code take} (park/unpark when it waits first). Every variant's round trip is the same request hop plus the hop
 * under test.
 */
@State(Scope.Benchmark)
public class BlockingQueueEcho {
    final RequestedItems requests = new RequestedItems();
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
                Item it;
                while ((it = requests.get()) != null) { // spins until requested; null once stopped
                    pong.put(it);
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
        requests.stop();
        echo.interrupt(); // in case it waits in put (it never should: one item in flight)
        echo.join(5_000);
    }
}
