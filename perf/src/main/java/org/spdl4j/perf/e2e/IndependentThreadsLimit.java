package org.spdl4j.perf.e2e;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.SingleThreadImageDecoder;

/**
 * The limit: {@code threads} independent threads, thread {@code t} decoding and resizing files {@code t, t + threads,
 * ...} into its own destination, nothing else (no queue, no batch assembly, no copy, no hand-off). What a perfect
 * loader would reach with as many threads, measured in one process with the same CPUs as the others (one thread's
 * rate times the threads would give that thread the JIT's and GC's share of the other CPUs for free).
 */
public final class IndependentThreadsLimit implements Contender {
    private static final ImageSpec SPEC = ImageSpec.centerCrop(ImageWork.SHORT_SIDE, ImageWork.CROP, PixelFormat.RGB24);

    /** Creates the contender. */
    public IndependentThreadsLimit() {
    }

    @Override
    public String name() {
        return "limit";
    }

    @Override
    public void run(List<Path> files, int threads, BatchConsumer consumer) throws InterruptedException {
        // The consumer counts batches; a lock per 32 images keeps its counters consistent across the threads.
        BatchConsumer shared = samples -> {
            synchronized (consumer) {
                consumer.accept(samples);
            }
        };
        List<Thread> workers = new ArrayList<>(threads);
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t;
            workers.add(Thread.ofPlatform().name("limit-" + t).start(() -> {
                try {
                    decodeShare(files, first, threads, shared);
                } catch (RuntimeException | Error e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        if (!failures.isEmpty()) {
            IllegalStateException e = new IllegalStateException("limit: " + failures.size() + " thread(s) failed");
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }

    private static void decodeShare(List<Path> files, int first, int stride, BatchConsumer consumer) {
        UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(SPEC.bytes()));
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            int inBatch = 0;
            for (int i = first; i < files.size(); i += stride) {
                decoder.decodeFile(files.get(i), SPEC, dst, 0);
                if (++inBatch == ImageWork.BATCH) {
                    consumer.accept(inBatch);
                    inBatch = 0;
                }
            }
            if (inBatch > 0) {
                consumer.accept(inBatch);
            }
        }
    }
}
