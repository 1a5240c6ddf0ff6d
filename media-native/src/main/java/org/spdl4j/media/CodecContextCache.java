package org.spdl4j.media;

import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.global.avcodec;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * A decoder thread's opened image codec contexts, one per (codec, lowres, JPEG tables and state) key, kept for the
 * thread's life so that steady-state decoding opens nothing. Contexts are single threaded ({@code thread_count = 1}):
 * parallelism comes from decoding many items on many threads, not from slicing one image.
 *
 * <p>A flush does not reset what FFmpeg's mjpeg decoder learnt from earlier images: their Huffman and quantization
 * tables stay, and an image that leaves a table out (a Motion JPEG frame has no DHT and means the standard tables)
 * would be decoded with the previous image's; nor what a few comments and application segments set (a COM "Metasoft
 * MJPEG Codec" flips every later picture upside down). So JPEG contexts are also keyed by the set of tables and of
 * such segments the image has ({@link ImageSniffer#jpegContextKey}): an image decodes as it would in a new context,
 * whatever the thread decoded before.
 *
 * <p>Not thread safe: owned by one {@link SingleThreadImageDecoder}. {@link #free()} frees every context.
 */
final class CodecContextCache {
    /** Errors a decoder must report rather than conceal: corrupt data becomes a MediaException, not a gray image. */
    static final int ERROR_RECOGNITION = avcodec.AV_EF_EXPLODE | avcodec.AV_EF_CRCCHECK | avcodec.AV_EF_BITSTREAM
            | avcodec.AV_EF_BUFFER;
    /**
     * Contexts kept: codecs x DCT scales x JPEG table sets (baseline and progressive, colour and grey, at up to four
     * scales, plus PNG and WebP) outnumber 8 in an ordinary web-image mix, which then reopened contexts on about one
     * image in eight; 16, kept least recently used, misses almost never.
     */
    private static final int CAPACITY = 16;

    private final int[] codecIds = new int[CAPACITY];
    private final int[] lowres = new int[CAPACITY];
    private final int[] tables = new int[CAPACITY];
    private final AVCodecContext[] contexts = new AVCodecContext[CAPACITY];
    private final long maxPixels;
    private int size;

    CodecContextCache(final long maxPixels) {
        this.maxPixels = maxPixels;
    }

    /**
     * The opened context for a codec at a DCT scale, flushed and ready for a new image.
     *
     * @param codecId the AVCodecID
     * @param lowresFactor 0..3
     * @param jpegKey the tables and decoder state a JPEG sets ({@link ImageSniffer#jpegContextKey}), 0 for other
     *                formats
     * @param label the input, for errors
     * @return an opened context owned by this cache
     */
    AVCodecContext get(final int codecId, final int lowresFactor, final int jpegKey, final String label) {
        for (int i = 0; i < size; i++) {
            if (codecIds[i] == codecId && lowres[i] == lowresFactor && tables[i] == jpegKey) {
                final AVCodecContext hit = contexts[i];
                if (i != size - 1) { // most recently used last: eviction takes the entry unused longest
                    System.arraycopy(codecIds, i + 1, codecIds, i, size - 1 - i);
                    System.arraycopy(lowres, i + 1, lowres, i, size - 1 - i);
                    System.arraycopy(tables, i + 1, tables, i, size - 1 - i);
                    System.arraycopy(contexts, i + 1, contexts, i, size - 1 - i);
                    codecIds[size - 1] = codecId;
                    lowres[size - 1] = lowresFactor;
                    tables[size - 1] = jpegKey;
                    contexts[size - 1] = hit;
                }
                // Drop any state left by the previous item (including a failed or drained one).
                avcodec.avcodec_flush_buffers(hit);
                return hit;
            }
        }
        final AVCodecContext ctx = open(codecId, lowresFactor, label);
        if (size == CAPACITY) {
            // Evict the least recently used entry: an unusual mix of formats; keeps the cache bounded.
            free(contexts[0]);
            System.arraycopy(codecIds, 1, codecIds, 0, CAPACITY - 1);
            System.arraycopy(lowres, 1, lowres, 0, CAPACITY - 1);
            System.arraycopy(tables, 1, tables, 0, CAPACITY - 1);
            System.arraycopy(contexts, 1, contexts, 0, CAPACITY - 1);
            size--;
        }
        codecIds[size] = codecId;
        lowres[size] = lowresFactor;
        tables[size] = jpegKey;
        contexts[size] = ctx;
        size++;
        return ctx;
    }

    private AVCodecContext open(final int codecId, final int lowresFactor, final String label) {
        final AVCodec codec = avcodec.avcodec_find_decoder(codecId);
        if (codec == null || codec.isNull()) {
            throw new MediaException(label, "no FFmpeg decoder for codec id " + codecId
                    + " (" + avcodec.avcodec_get_name(codecId).getString() + ") in this build");
        }
        final AVCodecContext ctx = avcodec.avcodec_alloc_context3(codec);
        if (ctx == null || ctx.isNull()) {
            throw new OutOfMemoryError("avcodec_alloc_context3 failed for " + label);
        }
        NativeResourceCounter.allocated(Kind.CODEC_CONTEXT);
        ctx.thread_count(1);
        ctx.lowres(Math.min(lowresFactor, codec.max_lowres()));
        // FFmpeg checks max_pixels when a frame header is parsed, before it allocates the frame.
        ctx.max_pixels(maxPixels);
        // FFmpeg's TIFF decoder fails on any tag it does not know under AV_EF_EXPLODE, and writers add such tags freely
        // (ImageIO's TIFFs have them): a valid TIFF would fail as "Invalid data found". Its real errors still fail.
        ctx.err_recognition(codecId == avcodec.AV_CODEC_ID_TIFF ? ERROR_RECOGNITION & ~avcodec.AV_EF_EXPLODE
                : ERROR_RECOGNITION);
        final int ret = avcodec.avcodec_open2(ctx, codec, (org.bytedeco.ffmpeg.avutil.AVDictionary) null);
        if (ret < 0) {
            free(ctx);
            throw FFmpeg.failure(ret, label, "avcodec_open2(" + codec.name().getString() + ")");
        }
        return ctx;
    }

    /**
     * Frees one cached context now (with the buffer pool its frames came from), e.g. after it decoded a frame too
     * large to keep pooled; the next image of its kind opens a new one.
     *
     * @param ctx a context {@link #get} returned
     */
    void evict(final AVCodecContext ctx) {
        for (int i = 0; i < size; i++) {
            if (contexts[i] == ctx) {
                free(ctx);
                System.arraycopy(codecIds, i + 1, codecIds, i, size - 1 - i);
                System.arraycopy(lowres, i + 1, lowres, i, size - 1 - i);
                System.arraycopy(tables, i + 1, tables, i, size - 1 - i);
                System.arraycopy(contexts, i + 1, contexts, i, size - 1 - i);
                size--;
                contexts[size] = null;
                return;
            }
        }
    }

    private static void free(final AVCodecContext ctx) {
        avcodec.avcodec_free_context(ctx);
        NativeResourceCounter.freed(Kind.CODEC_CONTEXT);
    }

    /** Frees every cached context. */
    void free() {
        for (int i = 0; i < size; i++) {
            free(contexts[i]);
            contexts[i] = null;
        }
        size = 0;
    }
}
