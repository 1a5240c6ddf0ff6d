package org.spdl4j.perf.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jctools.queues.SpscArrayQueue;

/**
 * Baseline (b): the hand-tuned alternative. JCTools {@link SpscArrayQueue}s (one producer, one consumer per link, as
 * every stage here has one thread), platform threads, and the engine's {@code YIELDING} idle loops
 * ({@link SpinYieldIdle}: a map re-polls an empty input 100 times, then yields; a full output and the consumer's empty
 * take yield at once), so that this and {@code spdl4j} with {@code YIELDING} differ in the queue alone. Stopping is a
 * volatile flag every loop checks.
 */
final class SpscQueuePipeline implements ItemPipeline {
    private final SpscArrayQueue<Item> q1 = new SpscArrayQueue<>(CAPACITY);
    private final SpscArrayQueue<Item> q2 = new SpscArrayQueue<>(CAPACITY);
    private final SpscArrayQueue<Item> q3 = new SpscArrayQueue<>(CAPACITY);
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    SpscQueuePipeline(StagePlacement place) {
        Item[] pool = Item.pool(POOL);
        threads.add(Thread.ofPlatform().name("jctools-source").daemon(true).start(() -> {
            StagePlacement.pin(place.source(), "source");
            for (long i = 0; running; i++) {
                Item it = pool[(int) i & (POOL - 1)];
                it.value = i;
                offer(q1, it);
            }
        }));
        threads.add(Thread.ofPlatform().name("jctools-map-1").daemon(true).start(() -> {
            StagePlacement.pin(place.map1(), "first map");
            map(q1, q2, Item::plusOne);
        }));
        threads.add(Thread.ofPlatform().name("jctools-map-2").daemon(true).start(() -> {
            StagePlacement.pin(place.map2(), "second map");
            map(q2, q3, Item::timesThree);
        }));
    }

    private void offer(SpscArrayQueue<Item> q, Item it) {
        while (!q.offer(it) && running) {
            SpinYieldIdle.offerMissed();
        }
    }

    private void map(SpscArrayQueue<Item> in, SpscArrayQueue<Item> out, UnaryOperator<Item> fn) {
        int misses = 0;
        while (running) {
            Item it = in.relaxedPoll();
            if (it == null) {
                misses = SpinYieldIdle.pollMissed(misses);
                continue;
            }
            misses = 0;
            offer(out, fn.apply(it));
        }
    }

    @Override
    public long take() {
        Item it;
        while ((it = q3.relaxedPoll()) == null) {
            SpinYieldIdle.offerMissed(); // the engine's sink waits by the yielding idle strategy: a yield per miss
        }
        return it.value;
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join(5_000);
            if (t.isAlive()) {
                throw new IllegalStateException(t.getName() + " did not stop within 5 s");
            }
        }
    }
}
