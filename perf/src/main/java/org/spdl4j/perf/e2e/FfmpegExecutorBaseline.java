package org.spdl4j.perf.e2e;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PerThreadImageDecoders;
import org.spdl4j.media.PixelFormat;

/**
 * The engine-less design of {@link ImageIoBaseline} (ExecutorService, BlockingQueue, a heap {@code byte[]} per sample,
 * batches as lists) with spdl4j's FFmpeg decoding instead of ImageIO: the difference between this and spdl4j is what
 * the engine and off-heap memory add; the difference to the ImageIO one is what the decoder adds.
 */
public final class FfmpegExecutorBaseline implements Contender {
    private static final ImageSpec SPEC = ImageSpec.centerCrop(ImageWork.SHORT_SIDE, ImageWork.CROP, PixelFormat.RGB24);

    /** Creates the contender. */
    public FfmpegExecutorBaseline() {
    }

    @Override
    public String name() {
        return "executor+ffmpeg";
    }

    @Override
    public void run(List<Path> files, int threads, BatchConsumer consumer) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        BlockingQueue<byte[]> done = new ArrayBlockingQueue<>(threads * 4);
        ThreadLocal<UnsafeBuffer> scratch = ThreadLocal.withInitial(
            () -> new UnsafeBuffer(ByteBuffer.allocateDirect(SPEC.bytes())));
        try (PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT)) {
            List<Future<?>> tasks = new ArrayList<>(files.size());
            for (Path f : files) {
                tasks.add(pool.submit(() -> {
                    UnsafeBuffer dst = scratch.get();
                    byte[] sample;
                    try {
                        decoders.decodeFile(f, SPEC, dst, 0);
                        sample = new byte[SPEC.bytes()]; // the heap copy a plain Java design makes per sample
                        dst.getBytes(0, sample);
                    } catch (RuntimeException e) { // a bad image costs one sample, not the run
                        sample = ExecutorResults.FAILED;
                    }
                    done.put(sample);
                    return null;
                }));
            }
            ExecutorResults.drain(done, files.size(), consumer);
            for (Future<?> t : tasks) {
                t.get();
            }
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS); // decoders close only after every worker is done
        } finally {
            pool.shutdownNow();
        }
    }
}
