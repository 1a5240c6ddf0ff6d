package org.spdl4j.examples.classify;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import org.agrona.BufferUtil;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleField;
import org.spdl4j.examples.slots.SlotWriter;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.PerThreadImageDecoders;

/**
 * Decodes a WebDataset sample's image member (or an HTTP-fetched object's {@code bytes} field), already in off-heap memory, straight into its batch slot (FFmpeg
 * reads the bytes in place by address; one scaler pass writes resized, cropped RGB into the slot).
 *
 * <p><b>Threading:</b> any number of threads, each with its own FFmpeg contexts ({@link PerThreadImageDecoders}).
 * <b>Allocation:</b> none per sample (the member lookup walks the sample's field list).
 */
public final class SampleImageWriter implements SlotWriter<Sample> {
    private final PerThreadImageDecoders decoders;
    private final ImageSpec spec;

    /**
     * Creates the writer.
     *
     * @param decoders per-thread FFmpeg decoders, owned (and closed) by the caller
     * @param spec     resize, crop and pixel format of the slot
     */
    public SampleImageWriter(PerThreadImageDecoders decoders, ImageSpec spec) {
        this.decoders = decoders;
        this.spec = spec;
    }

    @Override
    public void write(Sample sample, long address, int length) {
        SampleField image = imageField(sample);
        ByteBuffer bytes = image.bytes();
        if (!bytes.isDirect() && image.length() > 0) { // the decoder reads by address: a heap buffer has none
            throw new IllegalArgumentException("sample " + sample.origin() + ": its '" + image.name()
                    + "' bytes are on the heap; the decoder reads native memory. Read samples with a direct or pooled "
                    + "SampleAllocator (PooledSampleAllocator)");
        }
        long from = bytes.isDirect() ? BufferUtil.address(bytes) : 0L; // 0 bytes: the decoder refuses before reading
        try {
            // origin ("shard@offset") names the input in decoder errors; the sample caches nothing, so no allocation
            decoders.decode(from, image.length(), sample.origin(), spec, address, length);
        } finally {
            // The decoder reads through a bare address: the sample (and the buffer it holds) must stay reachable
            // until it returns, or a direct buffer's cleaner could free the bytes under the decoder.
            Reference.reachabilityFence(sample);
        }
    }

    private static SampleField imageField(Sample sample) {
        for (SampleField f : sample.fields()) {
            switch (f.name()) {
                case "jpg", "jpeg", "png", "webp", "bmp", "bytes" -> { // "bytes": an HTTP-fetched object
                    return f;
                }
                default -> {
                    // not an image member (cls, json, txt)
                }
            }
        }
        throw new IllegalArgumentException("sample '" + sample.key() + "' from " + sample.origin()
            + " has no jpg/jpeg/png/webp/bmp/bytes member; members: " + sample.fields().stream().map(SampleField::name)
            .toList());
    }
}
