package org.spdl4j.media;

import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.Pointer;

import java.util.function.Supplier;

/**
 * The native allocations a decoder or reader makes when it is created or opens a file, each checked: a null result
 * (native memory exhausted) becomes an {@link OutOfMemoryError} naming what failed and for which input, so the caller
 * frees what it already holds instead of handing NULL to FFmpeg (a JVM crash).
 *
 * <p>Also a test seam: {@link #failNth} makes the n-th allocation made through this class after it ({@link #allocate}
 * or {@link #dictSet}), on the calling thread only, fail as if the native allocator had returned null, so that a test
 * can check that every failure path frees what came before it.
 *
 * <p>Thread safe. Costs one volatile read per allocation beyond the allocation itself; never on a per-frame path.
 */
final class NativeAllocations {
    private static final int ENOMEM = -12; // AVERROR(ENOMEM)
    /** The thread a test armed a failure on, or null (always, outside such tests). */
    private static volatile Thread armed;
    /** Allocations left before the failing one; read and written only by the {@link #armed} thread. */
    private static int remaining;

    private NativeAllocations() {
    }

    /**
     * Runs a native allocation and checks its result.
     *
     * @param allocation the allocation (e.g. {@code avutil::av_frame_alloc}); may also throw OutOfMemoryError itself,
     *                   as JavaCPP's constructors do
     * @param what names the allocation in the error, e.g. {@code "av_frame_alloc"}
     * @param label names the input (or the object being created) in the error
     * @param <P> the pointer type
     * @return the allocated, non-null pointer, owned by the caller
     * @throws OutOfMemoryError when the allocation returned null
     */
    static <P extends Pointer> P allocate(final Supplier<P> allocation, final String what, final String label) {
        final P p = failNow() ? null : allocation.get();
        if (p == null || p.isNull()) {
            throw new OutOfMemoryError(what + " failed for " + label);
        }
        return p;
    }

    /**
     * Sets an entry of an options dictionary ({@code av_dict_set} allocates the dictionary and the entry); the
     * caller must check the result, since opening an input with options missing would run without them.
     *
     * @param options the dictionary (null inside until the first entry), freed by the caller with av_dict_free
     * @param key the option
     * @param value its value
     * @return av_dict_set's result: negative (an AVERROR) when the entry was not set
     */
    static int dictSet(final AVDictionary options, final String key, final String value) {
        return failNow() ? ENOMEM : avutil.av_dict_set(options, key, value, 0);
    }

    /**
     * Test seam: the allocation made {@code n} allocations from now through this class on the calling thread fails
     * (0 = the next one), once; allocations on other threads are unaffected.
     *
     * @param n how many allocations succeed first
     */
    static void failNth(final int n) {
        remaining = n;
        armed = Thread.currentThread(); // volatile write after the plain one: the armed thread reads them in order
    }

    /** Test seam: disarms {@link #failNth} if its failure has not happened. */
    static void reset() {
        armed = null;
    }

    /** {@return whether an armed failure is still waiting for its allocation} */
    static boolean armed() {
        return armed != null;
    }

    private static boolean failNow() {
        if (armed != Thread.currentThread()) {
            return false;
        }
        if (remaining-- > 0) {
            return false;
        }
        armed = null;
        return true;
    }
}
