package org.spdl4j.examples.image;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.PerThreadImageDecoders;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;

/**
 * The CPU stage: FFmpeg decodes the image and swscale writes the final pixels (RGB, short side + center crop, or with
 * augmentation the item's random crop and flip, chosen from its seed) straight into the item's slot of the batch
 * buffer, in one pass. Returns the batch when this image was its last missing
 * sample, else {@code null} (the engine drops the item: nothing to pass on yet).
 *
 * <p><b>Bad input:</b> a {@code MediaException} (corrupt, truncated, too large) fails only this sample's slot: it is
 * counted and logged with the file name, and the batch is published without it. Other items go on.
 * <b>Threading:</b> any number of workers; each uses its own thread's FFmpeg contexts. <b>Allocation:</b> no pixel
 * or byte buffer; what remains is the JavaCPP wrapper objects of the FFmpeg calls (pointer objects for the codec
 * parameters, pixel-format descriptors and the cached scaler), a few hundred bytes per image
 * ({@code ImageDecodeBenchmark -prof gc}: ~0.2 KB on the DC-only JPEG path, ~0.9 KB through FFmpeg), young-generation
 * garbage that dies at once.
 */
final class DecodeStage implements Function<ImageItem, Batch> {
    private static final Logger LOG = LoggerFactory.getLogger(DecodeStage.class);
    private final PerThreadImageDecoders decoders;
    private final ImageSpec spec;
    private final ImageItemPool items;
    private final LongAdder failures = new LongAdder();

    DecodeStage(PerThreadImageDecoders decoders, ImageSpec spec, ImageItemPool items) {
        this.decoders = decoders;
        this.spec = spec;
        this.items = items;
    }

    @Override
    public Batch apply(ImageItem item) {
        if (item.flushed != null) { // end-of-stream marker carrying a partial batch completed at flush
            Batch b = item.flushed;
            items.give(item);
            return b;
        }
        Slot slot = item.slot;
        Batch done;
        try {
            // the path names the input in errors (a Path caches its string form: no allocation here)
            decoders.decode(item.bytes.address(), item.length, item.file.path().toString(), spec, item.seed,
                slot.address(), slot.length());
            done = slot.complete();
        } catch (RuntimeException e) {
            failures.increment();
            LOG.warn("decode: dropped {}: {}", item.file.path(), e.getMessage());
            done = slot.fail(e);
        } finally {
            item.bytes.release();
            items.give(item);
        }
        return done;
    }

    /** {@return images that failed to decode so far} */
    long failures() {
        return failures.sum();
    }
}
