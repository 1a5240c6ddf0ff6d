package org.spdl4j.perf.e2e;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.SingleThreadImageDecoder;

/**
 * The limit: one thread decoding and resizing every file into one destination, nothing else (no queue, no batch, no
 * copy). Its rate times the threads is what a perfect loader would reach; the harness runs it with one thread.
 */
public final class SingleThreadLimit implements Contender {
    private static final ImageSpec SPEC = ImageSpec.centerCrop(ImageWork.SHORT_SIDE, ImageWork.CROP, PixelFormat.RGB24);

    /** Creates the contender. */
    public SingleThreadLimit() {
    }

    @Override
    public String name() {
        return "limit";
    }

    @Override
    public void run(List<Path> files, int threads, BatchConsumer consumer) {
        UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(SPEC.bytes()));
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            int inBatch = 0;
            for (Path f : files) {
                decoder.decodeFile(f, SPEC, dst, 0);
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
