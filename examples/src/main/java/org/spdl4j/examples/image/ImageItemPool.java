package org.spdl4j.examples.image;

import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.MpmcArrayQueue;

/**
 * A fixed set of {@link ImageItem}s, preallocated: the source takes one per image; the decode stage (or the read
 * stage, for an unreadable file, or the close path) gives it back. Sized to the most images that can be in flight between those stages (rings plus workers), so a take waits
 * only when the pipeline is full anyway, which is back-pressure, not a stall.
 *
 * <p><b>Threading:</b> any threads take and give (JCTools MPMC queue, lock-free). <b>Allocation:</b> none after
 * construction, but one item per {@link #retire} (an unreadable file).
 */
final class ImageItemPool {
    private static final long PARK_NANOS = 50_000;
    private final MpmcArrayQueue<ImageItem> free;
    private final int size;

    ImageItemPool(int size) {
        this.size = size;
        this.free = new MpmcArrayQueue<>(size);
        for (int i = 0; i < size; i++) {
            free.offer(new ImageItem());
        }
    }

    /**
     * Takes an item, waiting (park) while all are in flight.
     *
     * @return a cleared item
     * @throws InterruptedException when the waiting thread is interrupted (the pipeline closes)
     */
    ImageItem take() throws InterruptedException {
        ImageItem item = free.poll();
        while (item == null) {
            if (Thread.interrupted()) {
                throw new InterruptedException("image item pool: interrupted while all " + size + " items in flight");
            }
            LockSupport.parkNanos(PARK_NANOS);
            item = free.poll();
        }
        return item;
    }

    /**
     * Gives back what an item holds, whichever stage it got to: its encoded bytes once read, then the item itself.
     *
     * @param item an item taken from this pool, not given back yet
     */
    void release(ImageItem item) {
        if (item.bytes != null) {
            item.bytes.release();
        }
        give(item);
    }

    /**
     * Takes an item out of circulation, untouched, and puts a new one in its place (allocates: failure path only).
     * For an item that someone may still read after its stage has finished with it: the engine logs a failed task
     * with its item after the stage function threw.
     *
     * @param item an item taken from this pool, not given back yet, holding no bytes
     */
    void retire(ImageItem item) {
        if (item.bytes != null) {
            throw new IllegalStateException("a retired item must hold no bytes: release them first");
        }
        if (!free.offer(new ImageItem())) {
            throw new IllegalStateException("image item pool over-full: an item was given back twice");
        }
    }

    void give(ImageItem item) {
        item.clear();
        if (!free.offer(item)) {
            throw new IllegalStateException("image item pool over-full: an item was given back twice");
        }
    }

    int available() {
        return free.size();
    }

    int size() {
        return size;
    }
}
