package org.spdl4j.media;

import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVPixFmtDescriptor;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avutil;

import java.nio.file.Path;
import java.util.Arrays;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * Reads frames of one video file into a {@code [T, H, W, C]} destination: frames at timestamps or indices (seek to
 * the keyframe before, decode forward), or every k-th frame sequentially, in chunks for long files.
 *
 * <p><b>Threading:</b> confined to one thread (not checked per call; FFmpeg contexts must not be shared). Open one
 * reader per file per thread.
 *
 * <p><b>Memory:</b> owns the demuxer, decoder, one frame, one scaler until {@link #close()}; each output frame is
 * written by one scaler pass to {@code dst + t * spec.bytes()}. Limits: pixels and duration are checked from the
 * header when opening, frames per request against {@link MediaLimits#maxFrames()}.
 *
 * <p><b>Frame choice:</b> for a timestamp {@code t}, the first frame whose presentation time is at least
 * {@code t - half a frame} (the frame shown at {@code t} for constant frame rates); past the end, the last frame.
 * Index {@code i} means timestamp {@code i / fps}.
 */
public final class SingleThreadVideoReader implements AutoCloseable {
    /** Decode forward instead of seeking when the next target is at most this far ahead. */
    private static final double SEEK_AHEAD_SECONDS = 2.0;

    private final MediaLimits limits;
    private final StreamDecoder decoder;
    /** The current frame: the last one decoded; kept when the stream ends (so past the end means the last frame). */
    private final AVFrame frame;
    /** Where the decoder writes; moved into {@link #frame} only when it produced one (a failed receive unrefs it). */
    private final AVFrame next;
    private final FrameScaler scaler;
    private final ScalePlan plan = new ScalePlan();
    private final VideoStreamInfo info;
    private final double timeBase;
    private final long startPts;
    private boolean haveFrame;
    private boolean sequential = true;
    private long ordinal;
    private boolean closed;

    private SingleThreadVideoReader(final StreamDecoder decoder, final MediaLimits limits) {
        this.decoder = decoder;
        this.limits = limits;
        final AVRational tb = decoder.stream.time_base();
        this.timeBase = avutil.av_q2d(tb);
        this.startPts = decoder.stream.start_time() == avutil.AV_NOPTS_VALUE ? 0 : decoder.stream.start_time();
        // av_guess_frame_rate prefers the container's base rate when the average is skewed by frame durations.
        final AVRational rate = org.bytedeco.ffmpeg.global.avformat.av_guess_frame_rate(decoder.format,
                decoder.stream, null);
        final double fps = rate.den() == 0 ? 0 : avutil.av_q2d(rate);
        final double duration = FileInputs.durationSeconds(decoder.format, decoder.stream);
        final long declared = decoder.stream.nb_frames();
        this.info = new VideoStreamInfo(decoder.codec.width(), decoder.codec.height(), fps, duration,
                declared > 0 ? declared : Math.round(duration * fps),
                avcodec.avcodec_get_name(decoder.codec.codec_id()).getString(),
                pixelFormatName(decoder.codec.pix_fmt()));
        // Last, so nothing above can throw with them allocated; open frees the decoder on failure, this the rest.
        AVFrame current = null;
        AVFrame following = null;
        try {
            current = NativeAllocations.allocate(avutil::av_frame_alloc, "av_frame_alloc", decoder.label);
            NativeResourceCounter.allocated(Kind.FRAME);
            following = NativeAllocations.allocate(avutil::av_frame_alloc, "av_frame_alloc", decoder.label);
            NativeResourceCounter.allocated(Kind.FRAME);
            this.scaler = new FrameScaler(decoder.label);
        } catch (final RuntimeException | Error e) {
            freeFrame(following);
            freeFrame(current);
            throw e;
        }
        this.frame = current;
        this.next = following;
    }

    private static void freeFrame(final AVFrame f) {
        if (f != null) {
            avutil.av_frame_free(f);
            NativeResourceCounter.freed(Kind.FRAME);
        }
    }

    /**
     * Opens a video file.
     *
     * @param path the file
     * @param limits checked against the header (pixels, duration) and each request (frames)
     * @return the reader, owned by the caller
     */
    public static SingleThreadVideoReader open(final Path path, final MediaLimits limits) {
        final StreamDecoder decoder = StreamDecoder.open(path, avutil.AVMEDIA_TYPE_VIDEO, limits);
        try {
            return new SingleThreadVideoReader(decoder, limits);
        } catch (final RuntimeException | Error e) { // an allocation's OutOfMemoryError too
            decoder.free();
            throw e;
        }
    }

    /** {@return the stream's header information} */
    public VideoStreamInfo info() {
        return info;
    }

    /**
     * Decodes the frames shown at the given times into {@code [T, H, W, C]}, frame {@code t} at
     * {@code dstAddress + t * spec.bytes()}; times may be in any order and repeat.
     *
     * @param seconds presentation times from the start of the stream
     * @param spec the per-frame output description
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available; at least {@code seconds.length * spec.bytes()}
     * @return frames written ({@code seconds.length})
     */
    public int readFramesAt(final double[] seconds, final ImageSpec spec, final long dstAddress,
                            final long dstCapacity) {
        checkRequest(seconds.length, spec, dstCapacity);
        sequential = false;
        // Visit targets in time order (so one forward pass serves nearby targets), write each to its own slot.
        final Integer[] order = new Integer[seconds.length]; // per request, not per frame
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(seconds[a], seconds[b]));
        final double halfFrame = info.fps() > 0 ? 0.5 / info.fps() : 0;
        for (final int slot : order) {
            final double target = seconds[slot];
            if (!haveFrame || target < currentSeconds() - halfFrame || target > currentSeconds() + SEEK_AHEAD_SECONDS) {
                decoder.seek(startPts + (long) Math.floor(Math.max(0, target) / timeBase));
                haveFrame = false;
            }
            while (!haveFrame || currentSeconds() < target - halfFrame) {
                if (!advance()) {
                    if (haveFrame || lastFrameAfterEnd()) {
                        break; // past the end: the last frame
                    }
                    throw new MediaException(decoder.label, "no frame at or after " + target + " s");
                }
                haveFrame = true;
            }
            scaleCurrent(spec, dstAddress + (long) slot * spec.bytes());
        }
        return seconds.length;
    }

    /** After a seek that ran off the end: step back one second and keep the last frame decoded. */
    private boolean lastFrameAfterEnd() {
        decoder.seek(startPts + (long) Math.max(0, (info.durationSeconds() - 1) / timeBase));
        while (advance()) {
            haveFrame = true;
        }
        return haveFrame && frame.width() > 0;
    }

    /**
     * Decodes the next frame into {@link #next} and, if there is one, makes it the current {@link #frame}; at the
     * end of the stream the current frame stays as it was.
     *
     * @return whether a new frame was decoded
     */
    private boolean advance() {
        if (!decoder.receive(next)) {
            return false;
        }
        avutil.av_frame_unref(frame);
        avutil.av_frame_move_ref(frame, next);
        return true;
    }

    /**
     * Decodes the frames with the given indices (index {@code i} = time {@code i / fps}).
     *
     * @param indices frame indices from 0
     * @param spec the per-frame output description
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available
     * @return frames written
     */
    public int readFrames(final long[] indices, final ImageSpec spec, final long dstAddress, final long dstCapacity) {
        if (info.fps() <= 0) {
            throw new MediaException(decoder.label, "frame rate unknown: request frames by timestamp instead");
        }
        final double[] seconds = new double[indices.length];
        for (int i = 0; i < indices.length; i++) {
            seconds[i] = indices[i] / info.fps();
        }
        return readFramesAt(seconds, spec, dstAddress, dstCapacity);
    }

    /**
     * Sequential decoding of every {@code k}-th frame (frames 0, k, 2k, ...) into the destination, at most
     * {@code maxFrames} per call. Successive calls continue where the last stopped, so a long file is read in
     * chunks of bounded memory. After a timestamp request it restarts from the beginning.
     *
     * @param k the stride, at least 1
     * @param maxFrames most frames to write in this call
     * @param spec the per-frame output description
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available; at least {@code maxFrames * spec.bytes()}
     * @return frames written, 0 when the stream has ended
     */
    public int readEvery(final int k, final int maxFrames, final ImageSpec spec, final long dstAddress,
                         final long dstCapacity) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1: " + k);
        }
        checkRequest(maxFrames, spec, dstCapacity);
        if (!sequential) {
            decoder.seek(startPts);
            haveFrame = false;
            ordinal = 0;
            sequential = true;
        }
        int written = 0;
        while (written < maxFrames && advance()) {
            if (ordinal++ % k == 0) {
                scaleCurrent(spec, dstAddress + (long) written * spec.bytes());
                written++;
            }
        }
        return written;
    }

    private void checkRequest(final int frames, final ImageSpec spec, final long dstCapacity) {
        if (closed) {
            throw new IllegalStateException("reader closed");
        }
        if (spec.mode() == ResizeMode.RANDOM_RESIZED_CROP) {
            throw new IllegalArgumentException("RANDOM_RESIZED_CROP is an image transform (a seed per image); for"
                    + " video frames use EXACT, SHORT_SIDE_CENTER_CROP or PAD");
        }
        if (frames > limits.maxFrames()) {
            throw new MediaException(decoder.label, frames + " frames requested; the limit is " + limits.maxFrames()
                    + " (" + MediaConfiguration.MAX_FRAMES_PROP + ")");
        }
        if ((long) frames * spec.bytes() > dstCapacity) {
            throw new MediaException(decoder.label, "destination holds " + dstCapacity + " bytes; " + frames
                    + " frames need " + (long) frames * spec.bytes());
        }
    }

    private double currentSeconds() {
        final long pts = frame.best_effort_timestamp() != avutil.AV_NOPTS_VALUE
                ? frame.best_effort_timestamp() : frame.pts();
        return (pts - startPts) * timeBase;
    }

    private void scaleCurrent(final ImageSpec spec, final long address) {
        final AVPixFmtDescriptor desc = avutil.av_pix_fmt_desc_get(frame.format());
        if (desc == null || desc.isNull()) { // a corrupt stream can yield a frame without a pixel format
            throw new MediaException(decoder.label, "decoder produced a frame with no pixel format ("
                    + frame.format() + "); the stream is corrupt");
        }
        plan.compute(spec, frame.width(), frame.height(), FrameScaler.cropAlignLog2W(desc),
                FrameScaler.cropAlignLog2H(desc));
        scaler.scale(frame, plan, spec, address, decoder.label);
    }

    private static String pixelFormatName(final int format) {
        final org.bytedeco.javacpp.BytePointer name = avutil.av_get_pix_fmt_name(format);
        return name == null || name.isNull() ? "unknown" : name.getString();
    }

    /** Frees the decoder, demuxer, frame and scaler. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        freeFrame(frame);
        freeFrame(next);
        scaler.free();
        decoder.free();
    }
}
