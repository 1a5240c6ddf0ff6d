package org.spdl4j.perf.engine;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Baseline (a): what a Java developer writes today. An {@link ExecutorService} runs the source and the two map loops;
 * {@link ArrayBlockingQueue}s (one lock, two conditions each) join the stages; {@code put}/{@code take} block.
 */
final class BlockingQueuePipeline implements ItemPipeline {
    private final BlockingQueue<Item> q1 = new ArrayBlockingQueue<>(CAPACITY);
    private final BlockingQueue<Item> q2 = new ArrayBlockingQueue<>(CAPACITY);
    private final BlockingQueue<Item> q3 = new ArrayBlockingQueue<>(CAPACITY);
    private final ExecutorService threads = Executors.newFixedThreadPool(3);

    BlockingQueuePipeline(StagePlacement place) {
        Item[] pool = Item.pool(POOL);
        threads.execute(() -> {
            StagePlacement.pin(place.source(), "source");
            try {
                for (long i = 0; ; i++) {
                    Item it = pool[(int) i & (POOL - 1)];
                    it.value = i;
                    q1.put(it);
                }
            } catch (InterruptedException e) {
                // stop()
            }
        });
        threads.execute(() -> {
            StagePlacement.pin(place.map1(), "first map");
            map(q1, q2, Item::plusOne);
        });
        threads.execute(() -> {
            StagePlacement.pin(place.map2(), "second map");
            map(q2, q3, Item::timesThree);
        });
    }

    private static void map(BlockingQueue<Item> in, BlockingQueue<Item> out, UnaryOperator<Item> fn) {
        try {
            while (true) {
                out.put(fn.apply(in.take()));
            }
        } catch (InterruptedException e) {
            // stop()
        }
    }

    @Override
    public long take() throws InterruptedException {
        return q3.take().value;
    }

    @Override
    public void stop() throws InterruptedException {
        threads.shutdownNow();
        if (!threads.awaitTermination(5, TimeUnit.SECONDS)) {
            throw new IllegalStateException("ArrayBlockingQueue pipeline threads did not stop within 5 s");
        }
    }
}
