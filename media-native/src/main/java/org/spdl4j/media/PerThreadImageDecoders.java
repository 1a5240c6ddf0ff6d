package org.spdl4j.media;

import org.spdl4j.offheap.batch.SampleSeeds;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe image decoding: each calling thread gets its own {@link SingleThreadImageDecoder} (FFmpeg contexts are
 * never shared between threads), created on the thread's first call and reused for every later item.
 *
 * <p><b>Threading:</b> every decode method may be called from any number of threads at once; calls on different
 * threads share nothing but the native-resource counters and the {@link DecodeMemoryBudget}, where a call waits
 * (bounded) while its image's decoded size does not fit. {@link #close()} frees every thread's decoder and must be
 * called once decoding has stopped (for a pipeline: after its decode stage has shut down). A close that races decode
 * calls anyway is safe: calls that start after it fail with {@link IllegalStateException}, and it waits for the calls
 * in progress (at most {@value #CLOSE_WAIT_MILLIS} ms; past that it leaks the decoders, logged, rather than free
 * FFmpeg contexts a thread is using). Decoders taken with {@link #current()} are the caller's to stop using first.
 *
 * <p><b>Virtual threads</b> (a {@code pipeVirtual} stage starts one per task) do not get a decoder each, which would
 * open FFmpeg contexts per item and keep them until close: they borrow an idle decoder from a shared queue for the
 * length of one call and give it back, so there are at most as many of those decoders as virtual threads ever decoded
 * at once.
 *
 * <p>A platform thread that has ended leaves its decoder to the next platform thread that calls for the first time,
 * so a pool whose threads expire and are replaced keeps as many decoders as it ever had threads alive at once.
 *
 * <p><b>Allocation:</b> a thread's first call creates its decoder or takes over an ended thread's (a ThreadLocal
 * lookup per call after that); a virtual thread's call allocates the queue node of its give-back (the virtual thread
 * itself costs far more).
 */
public final class PerThreadImageDecoders implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PerThreadImageDecoders.class);
    private final MediaLimits limits;
    private final DecodeMemoryBudget budget;
    private final ConcurrentLinkedQueue<SingleThreadImageDecoder> all = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<SingleThreadImageDecoder> local = ThreadLocal.withInitial(this::forPlatformThread);
    /** Platform threads' decoders with the thread each belongs to: an ended thread's decoder goes to a new thread. */
    private final ConcurrentLinkedQueue<Owned> platform = new ConcurrentLinkedQueue<>();
    /** Idle decoders lent to virtual threads, one call at a time (unbounded: as many as decoded at once). */
    private final ConcurrentLinkedQueue<SingleThreadImageDecoder> idle = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;
    /** Decode calls in progress (borrowed decoders not yet given back). */
    private final AtomicInteger inCall = new AtomicInteger();
    /** How long {@link #close()} waits for decode calls in progress. */
    static final long CLOSE_WAIT_MILLIS = 10_000;

    /**
     * Creates the (empty) set of per-thread decoders, and warms FFmpeg up now, on the calling thread: its native
     * libraries are loaded and a tiny JPEG is decoded and scaled once (with a decoder closed straight after, under
     * limits that fit that image rather than {@code limits}), so that a pipeline's first images do not pay for library
     * loading, the decoder's one-time set-up and the JIT's first pass (together a few hundred milliseconds) once it
     * starts.
     *
     * @param limits the limits every input is checked against
     */
    public PerThreadImageDecoders(final MediaLimits limits) {
        this(limits, DecodeMemoryBudget.shared());
    }

    /**
     * Creates the (empty) set of per-thread decoders, all reserving each image's decoded size from {@code budget}
     * before decoding it, and warms FFmpeg up as {@link #PerThreadImageDecoders(MediaLimits)} does.
     *
     * @param limits the limits every input is checked against
     * @param budget the decode memory budget every thread's decoder shares ({@link DecodeMemoryBudget#shared()} by
     *               default)
     */
    public PerThreadImageDecoders(final MediaLimits limits, final DecodeMemoryBudget budget) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.budget = Objects.requireNonNull(budget, "budget");
        FFmpeg.preload();
        warmUp();
    }

    private static void warmUp() {
        final byte[] jpeg = WarmUpImage.jpeg();
        final UnsafeBuffer src = new UnsafeBuffer(ByteBuffer.allocateDirect(jpeg.length));
        src.putBytes(0, jpeg);
        final ImageSpec spec = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
        final UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(spec.bytes()));
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(WarmUpImage.LIMITS)) {
            decoder.decode(src, 0, jpeg.length, "warm-up image", spec, dst, 0);
        }
    }

    /** A platform thread's decoder and that thread. */
    private record Owned(SingleThreadImageDecoder decoder, Thread thread) {
    }

    /**
     * A platform thread's first call: takes over the decoder of a thread that has ended, if any (a pool whose threads
     * expire and are replaced would otherwise grow one decoder per thread it ever had, each holding its codec
     * contexts and buffers until close), else creates one. The ended thread's last action happens-before
     * {@code isAlive()} answers false, so its writes to the decoder are visible here; removing the entry is the claim,
     * so two new threads never take the same decoder. Runs only inside a counted call ({@link #borrow},
     * {@link #current}), so never while {@link #close()} frees the decoders, and a decoder it creates is in
     * {@link #all} before close() drains it.
     */
    private SingleThreadImageDecoder forPlatformThread() {
        final Thread self = Thread.currentThread();
        for (final Owned o : platform) {
            if (!o.thread().isAlive() && platform.remove(o)) {
                o.decoder().handOffTo(self);
                platform.add(new Owned(o.decoder(), self));
                return o.decoder();
            }
        }
        final SingleThreadImageDecoder decoder = create();
        platform.add(new Owned(decoder, self));
        return decoder;
    }

    private SingleThreadImageDecoder create() {
        final SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(limits,
                MediaConfiguration.DEFAULT_REDUCED_JPEG_DECODE, budget);
        all.add(decoder);
        return decoder;
    }

    /**
     * {@return the calling platform thread's decoder, created on first use}
     *
     * <p>The set-up (creating the decoder, or taking over an ended thread's) is counted like a decode call, so a
     * concurrent {@link #close()} waits for it and then frees that decoder too, never one in the middle of being
     * created or taken over; a close that began during the set-up makes this call throw rather than hand out a
     * decoder about to be freed.
     *
     * @throws IllegalStateException when closed, or when called on a virtual thread (use the decode methods, which
     *                               lend a decoder for one call)
     */
    public SingleThreadImageDecoder current() {
        inCall.incrementAndGet(); // before the closed check, as in borrow(): close() sees the count or we see the flag
        try {
            checkOpen();
            if (Thread.currentThread().isVirtual()) {
                throw new IllegalStateException("a virtual thread has no decoder of its own (it would live for one "
                        + "task); call the decode methods of PerThreadImageDecoders, which lend one for the call");
            }
            final SingleThreadImageDecoder decoder = local.get();
            checkOpen(); // close() began during the set-up: it frees the decoder once this call is counted out
            return decoder;
        } finally {
            inCall.decrementAndGet();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("PerThreadImageDecoders closed");
        }
    }

    /**
     * The decoder for one call: the thread's own, or, on a virtual thread, an idle one lent for the call. Counted in
     * before the closed check (two atomics per call, next to a decode of milliseconds): close() sets the flag, then
     * waits for the count, so one of the two always sees the other.
     */
    private SingleThreadImageDecoder borrow() {
        inCall.incrementAndGet();
        try {
            checkOpen();
            final Thread self = Thread.currentThread();
            if (!self.isVirtual()) {
                return local.get();
            }
            SingleThreadImageDecoder d = idle.poll();
            if (d == null) {
                d = create();
            }
            d.handOffTo(self);
            return d;
        } catch (RuntimeException | Error e) {
            inCall.decrementAndGet();
            throw e;
        }
    }

    private void giveBack(final SingleThreadImageDecoder d) {
        if (Thread.currentThread().isVirtual()) {
            idle.offer(d); // release: the next borrower sees every write of this call
        }
        inCall.decrementAndGet();
    }

    /**
     * {@return decoders created so far: one per platform thread that decoded while the others that had decoded were
     * still alive (a new thread takes over an ended thread's decoder), plus those lent to virtual threads}
     */
    public int decoderCount() {
        return all.size();
    }

    /**
     * Decodes an image file into a destination: e.g. RGB, short side 256, center crop 224 into a batch slot.
     *
     * @param path the image file
     * @param spec the output description
     * @param dst the destination buffer
     * @param dstOffset where the image starts in {@code dst}
     * @return bytes written
     */
    public int decodeFile(final Path path, final ImageSpec spec, final MutableDirectBuffer dst, final int dstOffset) {
        final SingleThreadImageDecoder d = borrow();
        try {
            return d.decodeFile(path, spec, dst, dstOffset);
        } finally {
            giveBack(d);
        }
    }

    /**
     * Decodes an image file to a raw destination address.
     *
     * @param path the image file
     * @param spec the output description
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available there
     * @return bytes written
     */
    public int decodeFile(final Path path, final ImageSpec spec, final long dstAddress, final long dstCapacity) {
        final SingleThreadImageDecoder d = borrow();
        try {
            return d.decodeFile(path, spec, dstAddress, dstCapacity);
        } finally {
            giveBack(d);
        }
    }

    /**
     * Decodes image bytes held in a buffer (an off-heap lease is read in place).
     *
     * @param src the encoded bytes
     * @param srcOffset first byte
     * @param srcLength number of bytes
     * @param label names the input in errors
     * @param spec the output description
     * @param dst the destination buffer
     * @param dstOffset where the image starts in {@code dst}
     * @return bytes written
     */
    public int decode(final DirectBuffer src, final int srcOffset, final int srcLength, final String label,
                      final ImageSpec spec, final MutableDirectBuffer dst, final int dstOffset) {
        final SingleThreadImageDecoder d = borrow();
        try {
            return d.decode(src, srcOffset, srcLength, label, spec, dst, dstOffset);
        } finally {
            giveBack(d);
        }
    }

    /**
     * Decodes image bytes at a native address into a native destination.
     *
     * @param srcAddress first encoded byte
     * @param srcLength number of bytes
     * @param label names the input in errors
     * @param spec the output description
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available there
     * @return bytes written
     */
    public int decode(final long srcAddress, final long srcLength, final String label, final ImageSpec spec,
                      final long dstAddress, final long dstCapacity) {
        final SingleThreadImageDecoder d = borrow();
        try {
            return d.decode(srcAddress, srcLength, label, spec, dstAddress, dstCapacity);
        } finally {
            giveBack(d);
        }
    }

    /**
     * Decodes image bytes held in a buffer, with a per-image seed for a random spec
     * ({@link ImageSpec#randomResizedCrop}).
     *
     * @param src the encoded bytes
     * @param srcOffset first byte
     * @param srcLength number of bytes
     * @param label names the input in errors
     * @param spec the output description
     * @param seed this image's seed ({@link SampleSeeds}); ignored by the deterministic modes
     * @param dst the destination buffer
     * @param dstOffset where the image starts in {@code dst}
     * @return bytes written
     */
    public int decode(final DirectBuffer src, final int srcOffset, final int srcLength, final String label,
                      final ImageSpec spec, final long seed, final MutableDirectBuffer dst, final int dstOffset) {
        final SingleThreadImageDecoder d = borrow();
        try {
            return d.decode(src, srcOffset, srcLength, label, spec, seed, dst, dstOffset);
        } finally {
            giveBack(d);
        }
    }

    /**
     * Decodes image bytes at a native address into a native destination, with a per-image seed for a random spec.
     *
     * @param srcAddress first encoded byte
     * @param srcLength number of bytes
     * @param label names the input in errors
     * @param spec the output description
     * @param seed this image's seed ({@link SampleSeeds}); ignored by the deterministic modes
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available there
     * @return bytes written
     */
    public int decode(final long srcAddress, final long srcLength, final String label, final ImageSpec spec,
                      final long seed, final long dstAddress, final long dstCapacity) {
        final SingleThreadImageDecoder d = borrow();
        try {
            return d.decode(srcAddress, srcLength, label, spec, seed, dstAddress, dstCapacity);
        } finally {
            giveBack(d);
        }
    }

    /**
     * Decodes as {@link #decode(long, long, String, ImageSpec, long, long, long)} does, waiting for the decode memory
     * budget no later than {@code deadlineNanos} ({@link System#nanoTime()}; Long.MAX_VALUE for no deadline).
     */
    int decode(final long srcAddress, final long srcLength, final String label, final ImageSpec spec,
               final long seed, final long dstAddress, final long dstCapacity, final long deadlineNanos) {
        final SingleThreadImageDecoder d = borrow();
        d.deadline(deadlineNanos);
        try {
            return d.decode(srcAddress, srcLength, label, spec, seed, dstAddress, dstCapacity);
        } finally {
            d.deadline(Long.MAX_VALUE);
            giveBack(d);
        }
    }

    /**
     * Frees every thread's decoder once the decode calls (and {@link #current()} set-ups) in progress have returned
     * (later calls throw IllegalStateException). Call it when decoding has stopped; a call still running after
     * {@value #CLOSE_WAIT_MILLIS} ms leaves the decoders allocated (logged) rather than freed under it.
     */
    @Override
    public void close() {
        closed = true;
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
        // Seeing the count at zero once is enough: a call counted in after that sees the flag and backs out without
        // touching a decoder. Reading it again could catch such a call on its way out and skip the freeing.
        int running;
        while ((running = inCall.get()) > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000L);
        }
        if (running > 0) {
            LOG.error("PerThreadImageDecoders closed while {} decode call(s) still run after {} ms; their FFmpeg "
                    + "contexts are leaked rather than freed under them", running, CLOSE_WAIT_MILLIS);
            return;
        }
        SingleThreadImageDecoder d;
        while ((d = all.poll()) != null) {
            d.close();
        }
    }
}
