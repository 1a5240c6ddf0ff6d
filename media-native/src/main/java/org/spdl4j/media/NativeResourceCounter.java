package org.spdl4j.media;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts FFmpeg objects allocated minus freed, per kind, across all threads. Tests assert every count returns to zero
 * once decoders are closed; a non-zero count after close is a native leak.
 *
 * <p>Thread safe: one atomic add per allocation or free. Allocations are per item (format context, I/O context) or
 * per decoder (codec contexts, frames, packets, scalers), so the cost is a few atomics per decoded item.
 */
public final class NativeResourceCounter {
    /** The kinds of native object counted. */
    public enum Kind {
        /** AVFormatContext (one per opened input). */
        FORMAT_CONTEXT,
        /** AVIOContext and its buffer (one per opened input, in memory or file). */
        IO_CONTEXT,
        /** AVCodecContext (cached per decoder thread). */
        CODEC_CONTEXT,
        /** AVFrame. */
        FRAME,
        /** AVPacket. */
        PACKET,
        /** SwsContext. */
        SCALER,
        /** SwrContext. */
        RESAMPLER,
        /** Other native memory owned by a decoder (pointer arrays, I/O descriptors). */
        BUFFER
    }

    private static final AtomicLongArray COUNTS = new AtomicLongArray(Kind.values().length);

    private NativeResourceCounter() {
    }

    static void allocated(final Kind kind) {
        COUNTS.incrementAndGet(kind.ordinal());
    }

    static void freed(final Kind kind) {
        COUNTS.decrementAndGet(kind.ordinal());
    }

    /**
     * Outstanding objects of one kind.
     *
     * @param kind the kind
     * @return allocated minus freed
     */
    public static long outstanding(final Kind kind) {
        return COUNTS.get(kind.ordinal());
    }

    /** {@return the sum over all kinds of allocated minus freed} */
    public static long outstanding() {
        long sum = 0;
        for (int i = 0; i < COUNTS.length(); i++) {
            sum += COUNTS.get(i);
        }
        return sum;
    }

    /** {@return a one-line summary, e.g. for a failed test: FORMAT_CONTEXT=0 IO_CONTEXT=0 ...} */
    public static String describe() {
        final StringBuilder sb = new StringBuilder();
        for (final Kind k : Kind.values()) {
            sb.append(k).append('=').append(COUNTS.get(k.ordinal())).append(' ');
        }
        return sb.toString().trim();
    }
}
