package org.spdl4j.media;

import org.bytedeco.ffmpeg.avcodec.AVCodecDescriptor;
import org.bytedeco.ffmpeg.avformat.AVIndexEntry;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVPixFmtDescriptor;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.avutil;

import java.nio.file.Path;
import java.util.Arrays;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * Reads frames of one video (a file, or a file's bytes in native memory) into a {@code [T, H, W, C]} destination: frames at timestamps or indices (seek to
 * the keyframe before, decode forward), or every k-th frame sequentially, in chunks for long files. A seek that lands
 * after the target (MPEG-TS and MPEG-PS land on any packet; MP4 with B-frames on the keyframe after the B-frames shown
 * before it) is noticed from the first frame decoded after it and retried further back. An input that cannot seek
 * (a raw H.264 stream) is decoded forward to later targets and reopened for earlier ones; frames without timestamps
 * (raw streams again) are timed by the frame rate from the first frame.
 *
 * <p><b>Threading:</b> confined to one thread (not checked per call; FFmpeg contexts must not be shared). Open one
 * reader per file per thread.
 *
 * <p><b>Bytes in memory</b> ({@link #open(long, long, String, MediaLimits)}: a tar member, a fetched URL) are read in
 * place through a custom I/O context that seeks as a file does, so every request works as on the file; where the file
 * would be reopened (an input that cannot seek), the same bytes are opened again. They are the caller's, and must stay
 * valid until {@link #close()}.
 *
 * <p><b>Memory:</b> owns the demuxer, decoder, one frame, one scaler until {@link #close()}; each output frame is
 * written by one scaler pass to {@code dst + t * spec.bytes()}. Limits: pixels and duration are checked from the
 * header when opening (a stream that declares no duration: on the frames as they decode), frames per request against
 * {@link MediaLimits#maxFrames()}.
 *
 * <p><b>Frame choice:</b> for a timestamp {@code t}, the frame whose presentation time is nearest {@code t}, by the
 * frames' own timestamps (so at a variable frame rate too), and of two equally near the earlier, the one shown at
 * {@code t}; past the end, the last frame. Index {@code i} means timestamp {@code i / fps}. Times count from the
 * first decoded frame's timestamp, so index {@code i} is the {@code i}-th frame {@link #readEvery} gives (for constant
 * frame rates).
 */
public final class SingleThreadVideoReader implements AutoCloseable {
    /** Decode forward instead of seeking when the next target is at most this far ahead. */
    private static final double SEEK_AHEAD_SECONDS = 2.0;
    /** How far before the target the second seek goes when the first landed after it; doubled for each further one. */
    private static final double FIRST_STEP_BACK_SECONDS = 1.0;

    /** The file, or null for bytes in memory ({@link #address}, {@link #length}). */
    private final Path path;
    private final long address;
    private final long length;
    private final MediaLimits limits;
    /** Replaced by a fresh one when the file has to be reopened to get back to its first frame. */
    private StreamDecoder decoder;
    /** The current frame: the last one taken from {@link #next}; kept when the stream ends (past the end: the last). */
    private final AVFrame frame;
    /**
     * Where the decoder writes: the next frame, decoded but not yet current when {@link #havePending} (looked at
     * after a seek, or at the start); a failed receive unrefs it, never {@link #frame}.
     */
    private final AVFrame next;
    private final FrameScaler scaler;
    private final ScalePlan plan = new ScalePlan();
    private final VideoStreamInfo info;
    private final double timeBase;
    /** How far apart a frame's time and a target may be and still count as equal (timestamps are rounded). */
    private final double tolerance;
    /**
     * Time 0, in time-base ticks: the first decoded frame's timestamp (once {@link #start()} saw it), else the
     * stream's start time. Not the start time alone: AVI with B-frames starts at 0 but its first frame comes out
     * stamped 1 (decode times shifted by the decoder's delay), and index i must be the i-th frame readEvery returns.
     */
    private long originPts;
    private boolean haveFrame;
    private boolean havePending;
    /** The time of {@link #frame} and of {@link #next}, from the stream's first frame, in seconds. */
    private double frameSeconds;
    private double nextSeconds;
    /**
     * For frames without a timestamp (raw H.264 has none): the time of the last frame with one (0 at the start, NaN
     * after a seek: the position is unknown) and the frames decoded since; they come one frame period apart.
     * {@link #atStart} before the first frame.
     */
    private double anchorSeconds;
    private long framesSinceAnchor;
    private boolean atStart = true;
    /** Whether the first frame has been looked at ({@link #start()}). */
    private boolean started;
    /** Whether the stream decoded no frame at all from its start. */
    private boolean empty;
    /**
     * Whether frames before the first keyframe after a seek are skipped (some decoders, MPEG-4 part 2, output them
     * without their references): for every codec with inter frames, whose FFmpeg decoders mark keyframes; not for
     * intra-only codecs (AV_CODEC_PROP_INTRA_ONLY), where every frame stands alone. Decided from the codec, not from
     * the stream's first frame: a TS cut mid-GOP starts with an unmarked P-frame although its I-frames are marked.
     */
    private final boolean keyframesMarked;
    /**
     * Whether the demuxer allows timestamp discontinuities (MPEG-TS, MPEG-PS): it seeks by a binary search over packet
     * timestamps and stamps the packets after the seek point from the timestamp it searched for, so a frame without
     * its own pts there is stamped wrongly (in MPEG-PS, half a frame late) until the next packet that carries one.
     */
    private final boolean stampsAfterSeekGuessed;
    /**
     * False once a seek of the current input failed (raw streams): targets ahead are decoded to, earlier ones reached
     * by reopening the file. The reopened input may seek again ({@link #restart}), so one failed seek does not cost a
     * reopen for every later earlier target; a format without timestamps (raw streams) stays unseekable.
     */
    private boolean seekable = true;
    private boolean sequential = true;
    /** Seeks asked of the demuxer over the reader's life (for tests: the work a request costs). */
    long seeks;
    /** Times the file was reopened to get back to its first frame (for tests: the work a request costs). */
    long reopens;
    /** For tests: this many further seeks fail as those of an input that cannot seek do, without seeking. */
    int failNextSeeks;
    private long ordinal;
    private boolean closed;

    private SingleThreadVideoReader(final Path path, final long address, final long length,
                                    final StreamDecoder decoder, final MediaLimits limits) {
        this.path = path;
        this.address = address;
        this.length = length;
        this.decoder = decoder;
        this.limits = limits;
        final AVRational tb = decoder.stream.time_base();
        this.timeBase = avutil.av_q2d(tb);
        this.originPts = decoder.stream.start_time() == avutil.AV_NOPTS_VALUE ? 0 : decoder.stream.start_time();
        // av_guess_frame_rate prefers the container's base rate when the average is skewed by frame durations.
        final AVRational rate = avformat.av_guess_frame_rate(decoder.format,
                decoder.stream, null);
        final double fps = rate.den() == 0 ? 0 : avutil.av_q2d(rate);
        final double duration = HeaderDurations.streamSeconds(decoder.format, decoder.stream);
        final long declared = decoder.stream.nb_frames();
        this.info = new VideoStreamInfo(decoder.codec.width(), decoder.codec.height(), fps, duration,
                declared > 0 ? declared : Math.round(duration * fps),
                avcodec.avcodec_get_name(decoder.codec.codec_id()).getString(),
                pixelFormatName(decoder.codec.pix_fmt()));
        // One tick of the time base (timestamps are rounded to it), but under a quarter frame (AVI's tick is a frame).
        this.tolerance = fps > 0 ? Math.min(timeBase, 0.25 / fps) : timeBase;
        this.stampsAfterSeekGuessed = (decoder.format.iformat().flags() & avformat.AVFMT_TS_DISCONT) != 0;
        final AVCodecDescriptor descriptor = avcodec.avcodec_descriptor_get(decoder.codec.codec_id());
        this.keyframesMarked = descriptor == null || descriptor.isNull()
                || (descriptor.props() & avcodec.AV_CODEC_PROP_INTRA_ONLY) == 0;
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
        return open(path, path.toString(), limits);
    }

    /**
     * Opens a video file, naming it {@code label} in errors (e.g. a loader's sample key).
     *
     * @param path the file
     * @param label names the input in errors
     * @param limits checked against the header (pixels, duration) and each request (frames)
     * @return the reader, owned by the caller
     */
    static SingleThreadVideoReader open(final Path path, final String label, final MediaLimits limits) {
        return create(path, 0, 0, StreamDecoder.open(path, label, avutil.AVMEDIA_TYPE_VIDEO, limits), limits);
    }

    /**
     * Opens a video file's bytes held in native memory (a tar member, a fetched URL), read in place: no copy, no
     * temporary file. Seeks work as on the file.
     *
     * @param address first byte; the bytes must stay valid and unchanged until {@link #close()}
     * @param length number of bytes, at least 1
     * @param label names the input in errors (a key, a URL)
     * @param limits checked against the header (pixels, duration) and each request (frames)
     * @return the reader, owned by the caller
     * @throws MediaException when the bytes are empty, not a video FFmpeg can read, or over the limits
     */
    public static SingleThreadVideoReader open(final long address, final long length, final String label,
                                               final MediaLimits limits) {
        return create(null, address, length,
                StreamDecoder.open(address, length, label, avutil.AVMEDIA_TYPE_VIDEO, limits), limits);
    }

    private static SingleThreadVideoReader create(final Path path, final long address, final long length,
                                                  final StreamDecoder decoder, final MediaLimits limits) {
        try {
            return new SingleThreadVideoReader(path, address, length, decoder, limits);
        } catch (final RuntimeException | Error e) { // an allocation's OutOfMemoryError too
            decoder.free();
            throw e;
        }
    }

    /** {@return the input opened afresh, at its first frame: the file again, or the same bytes} */
    private StreamDecoder reopen() {
        return path != null ? StreamDecoder.open(path, decoder.label, avutil.AVMEDIA_TYPE_VIDEO, limits)
                : StreamDecoder.open(address, length, decoder.label, avutil.AVMEDIA_TYPE_VIDEO, limits);
    }

    /** {@return packets sent to the current decoder (for tests: the work a request costs; a reopen starts at 0)} */
    long packetsSent() {
        return decoder.packetsSent();
    }

    /** {@return the stream's header information} */
    public VideoStreamInfo info() {
        return info;
    }

    /**
     * Decodes the frames shown at the given times into {@code [T, H, W, C]}, frame {@code t} at
     * {@code dstAddress + t * spec.bytes()}; times may be in any order and repeat.
     *
     * @param seconds presentation times from the first frame's, each finite and at least 0 (past the end: the last
     *                frame)
     * @param spec the per-frame output description
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available; at least {@code seconds.length * spec.bytes()}
     * @return frames written ({@code seconds.length})
     * @throws IllegalArgumentException when a time is NaN, negative or infinite (nothing is decoded); the message
     *         names its position and value
     */
    public int readFramesAt(final double[] seconds, final ImageSpec spec, final long dstAddress,
                            final long dstCapacity) {
        checkRequest(seconds.length, spec, dstCapacity);
        for (int i = 0; i < seconds.length; i++) {
            if (!(seconds[i] >= 0 && seconds[i] < Double.POSITIVE_INFINITY)) { // NaN fails both
                throw new IllegalArgumentException("seconds[" + i + "] is " + seconds[i]
                        + ": times must be finite and at least 0");
            }
        }
        start();
        if (empty) {
            final String skipped = decoder.invalidPacketsNote();
            throw new MediaException(decoder.label, "no frame decoded: the stream has no decodable video frame"
                    + (skipped.isEmpty() ? "" : "; " + skipped));
        }
        sequential = false;
        // Visit targets in time order (so one forward pass serves nearby targets), write each to its own slot.
        final Integer[] order = new Integer[seconds.length]; // per request, not per frame
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(seconds[a], seconds[b]));
        for (final int slot : order) {
            final double target = seconds[slot];
            if (!canDecodeForwardTo(target)) {
                seekBefore(target);
            }
            if (!haveFrame && !advance()) {
                throw new MediaException(decoder.label, "no frame decoded at or before " + target + " s");
            }
            scale(decodeTo(target), spec, dstAddress + (long) slot * spec.bytes());
        }
        return seconds.length;
    }

    /**
     * Looks at the stream's first frame, once: its timestamp becomes time 0. It stays pending, so it is the first one {@link #readEvery} writes.
     */
    private void start() {
        if (started) {
            return;
        }
        started = true;
        empty = !peek();
        if (!empty) {
            final long first = timestampOf(next);
            if (first != avutil.AV_NOPTS_VALUE) {
                originPts = first;
                nextSeconds = 0;
                anchorSeconds = 0;
            }
        }
    }

    /**
     * {@return whether the frame for {@code target} lies ahead of the current position, near enough to decode to}
     * The current frame (or, right after a seek or at the start, the pending one) is at or before the target, and
     * nothing between it and the target has been skipped.
     */
    private boolean canDecodeForwardTo(final double target) {
        if (haveFrame) {
            return frameSeconds <= target + tolerance && (target <= frameSeconds + SEEK_AHEAD_SECONDS || !seekable);
        }
        if (havePending) {
            return nextSeconds <= target + tolerance && (!seekable
                    || target <= nextSeconds + SEEK_AHEAD_SECONDS && !indexedKeyframeAfter(nextSeconds, target));
        }
        return false;
    }

    /**
     * {@return whether the container's index lists a keyframe after {@code from} and at or before {@code target}}
     * Then a seek reaches the target by decoding fewer frames than decoding on from {@code from} (a fresh reader's
     * first frame): a clip starting 2 s in decodes from the keyframe there, not from frame 0. Without an index entry
     * for the target (MPEG-TS and MPEG-PS have none; their seeks are a costly search), false: decode on.
     */
    private boolean indexedKeyframeAfter(final double from, final double target) {
        final AVStream stream = decoder.stream;
        if (avformat.avformat_index_get_entries_count(stream) <= 0) {
            return false;
        }
        final int i = avformat.av_index_search_timestamp(stream, originPts + ticks(target),
                avformat.AVSEEK_FLAG_BACKWARD);
        if (i < 0) {
            return false;
        }
        final AVIndexEntry entry = avformat.avformat_index_get_entry(stream, i);
        return entry != null && !entry.isNull() && entry.timestamp() > originPts + ticks(from + tolerance);
    }

    /**
     * Whether the stream, ended before {@code target}, ended short of what it is: it lost packets on the way, or it
     * stops well inside the duration its header declares (before 90% of it, the target more than two frames or 5% of
     * the duration past its last frame; a video track a little shorter than its audio is not short).
     */
    private boolean endedShort(final double target) {
        if (decoder.skippedInvalid()) {
            return true;
        }
        final double declared = info.durationSeconds();
        final double frame = info.fps() > 0 ? 1 / info.fps() : 0;
        return declared > 0 && frameSeconds < 0.9 * declared
                && target > frameSeconds + Math.max(2 * frame, 0.05 * declared);
    }

    /**
     * Decodes forward from the current frame (at or before {@code target}) to the frame nearest the target.
     *
     * @return the current frame, or the pending one after it when that is nearer: the current frame stays at or
     *         before the target, so a later target, or the same again, is decoded to from it
     */
    private AVFrame decodeTo(final double target) {
        while (frameSeconds < target - tolerance) {
            if (!peek()) {
                if (endedShort(target)) {
                    // A truncated or corrupt file: its last frame would stand in for every later time asked (a clip
                    // of one frame repeated). Not a sample to train on.
                    final String lost = decoder.invalidPacketsNote();
                    throw new MediaException(decoder.label, "the stream ends at " + Math.round(frameSeconds * 1000)
                            / 1000.0 + " s of the " + Math.round(info.durationSeconds() * 1000) / 1000.0 + " s its"
                            + " header declares, before the frame asked for at " + Math.round(target * 1000) / 1000.0
                            + " s" + (lost.isEmpty() ? "" : ", and " + lost) + ": truncated or corrupt");
                }
                return frame; // past the end of a whole stream: the last frame
            }
            if (nextSeconds > target + tolerance) {
                // Between two frames: the nearer, and on a tie (within the tolerance) the earlier, shown at target.
                return nextSeconds - target < target - frameSeconds - tolerance ? next : frame;
            }
            advance();
        }
        return frame;
    }

    /**
     * Positions the decoder so that the next frame (left pending) is at or before {@code target}, with no frame
     * between it and the target skipped, or is the stream's first frame.
     *
     * <p>A seek to a timestamp does not always land on a keyframe at or before it: MPEG-TS and MPEG-PS are searched
     * by packet timestamps and land on any packet (the decoder then drops frames up to the next keyframe, or, past
     * the last keyframe, decodes nothing); MP4 with B-frames lands on the keyframe after B-frames that are shown
     * before it but decoded after it. So the first frame decoded after the seek is checked, and while it is later
     * than the target (or missing) the seek goes further back, one second, then twice as far each time; the last
     * resort is the stream's beginning, taken at once when a step back does not move the seek earlier (a huge target
     * in an input that declares no duration: its tick count saturates), so no seek is repeated.
     */
    private void seekBefore(final double target) {
        final double duration = info.durationSeconds();
        final double at = duration > 0 ? Math.min(target, duration) : target; // a seek far past the end finds nothing
        double back = 0;
        long previous = Long.MAX_VALUE;
        while (seekable && at - back > 0) {
            final long ticks = ticks(at - back);
            if (ticks >= previous) {
                break; // the step back did not move the seek (saturated, or below a tick of a huge time): no repeat
            }
            previous = ticks;
            if (!seek(ticks)) {
                break; // this input cannot seek: from the start
            }
            if (firstUsableFrameAtOrBefore(target)) {
                return;
            }
            back = back == 0 ? FIRST_STEP_BACK_SECONDS : 2 * back;
        }
        restart();
    }

    /**
     * After a seek: decodes up to the first usable frame (skipping frames before the first keyframe when the decoder
     * marks them) and leaves it pending.
     *
     * @return whether it is at or before {@code target}, with a time that can be trusted
     */
    private boolean firstUsableFrameAtOrBefore(final double target) {
        while (peek()) {
            if (!(nextSeconds <= target + tolerance)) { // NaN: no timestamp, and after a seek no count either
                return false;
            }
            if (!keyframesMarked || isKeyframe(next)) {
                // Without its own pts, an MPEG-TS/PS frame after a seek is stamped from the seek itself: untrusted.
                return !stampsAfterSeekGuessed || next.pts() != avutil.AV_NOPTS_VALUE;
            }
            havePending = false; // decoded without its references: not a frame of the stream
        }
        return false; // nothing decoded: the seek landed after the last keyframe
    }

    /**
     * Goes back to the stream's first frame (left pending): by a seek to the start when the first usable frame
     * decoded after it is the stream's first (not so for MPEG-TS, whose seek can land a GOP late, nor for MPEG-4 part
     * 2 with B-frames there, whose first frame after a flush is a stale picture), else, and for inputs that cannot
     * seek, by reopening the file (or the bytes in memory). The reopened input is seekable again unless its format has no timestamps.
     */
    private void restart() {
        if (seekable && seek(0L) && firstUsableFrameAtOrBefore(0) && pendingIsFirst()) {
            return;
        }
        final StreamDecoder fresh = reopen();
        avutil.av_frame_unref(frame); // frames hold references into the old decoder's buffers; drop them first
        avutil.av_frame_unref(next);
        haveFrame = false;
        havePending = false;
        decoder.free();
        decoder = fresh;
        reopens++;
        // The failed seek belonged to the old input. A raw stream's seeks always fail (after reading the whole file
        // for an index): it stays unseekable, decoding forward to later targets; any other input may seek again.
        seekable = (fresh.format.iformat().flags() & avformat.AVFMT_NOTIMESTAMPS) == 0;
        atStart = true;
        peek();
    }

    /**
     * Seeks to the keyframe the demuxer finds at or before {@code ticks} (time-base ticks from time 0); nothing is current or pending after.
     *
     * @return false when the input cannot seek (then {@link #seekable} is false and only reopening gets back)
     */
    private boolean seek(final long ticks) {
        haveFrame = false;
        havePending = false;
        atStart = false;
        anchorSeconds = Double.NaN;
        seeks++;
        if (failNextSeeks > 0) {
            failNextSeeks--;
            seekable = false;
        } else {
            seekable = decoder.seek(originPts + ticks);
        }
        return seekable;
    }

    /** {@return {@code seconds} in time-base ticks, saturating far past any real stream's end} */
    private long ticks(final double seconds) {
        final double t = Math.floor(seconds / timeBase + 1e-3); // 1e-3: a target on a tick is not rounded below it
        return t >= 0x1p60 ? 1L << 60 : (long) t;
    }

    /** {@return whether the pending frame is the stream's first (at time 0: nothing comes before it)} */
    private boolean pendingIsFirst() {
        return nextSeconds <= tolerance;
    }

    private static boolean isKeyframe(final AVFrame f) {
        return (f.flags() & AVFrame.AV_FRAME_FLAG_KEY) != 0;
    }

    /** {@return whether there is a next frame; it is decoded into {@link #next} unless already pending there} */
    private boolean peek() {
        if (!havePending && decoder.receive(next)) {
            havePending = true;
            nextSeconds = secondsOf(next);
        }
        return havePending;
    }

    /**
     * Makes the next frame (the pending one, or a newly decoded one) the current {@link #frame}; at the end of the
     * stream the current frame stays as it was.
     *
     * @return whether there was a next frame
     */
    private boolean advance() {
        if (!peek()) {
            return false;
        }
        avutil.av_frame_unref(frame);
        avutil.av_frame_move_ref(frame, next);
        frameSeconds = nextSeconds;
        havePending = false;
        haveFrame = true;
        return true;
    }

    /**
     * Decodes the frames with the given indices (index {@code i} = time {@code i / fps}).
     *
     * @param indices frame indices from 0 (past the end: the last frame)
     * @param spec the per-frame output description
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available
     * @return frames written
     * @throws IllegalArgumentException when an index is negative (nothing is decoded); the message names its position
     *         and value
     */
    public int readFrames(final long[] indices, final ImageSpec spec, final long dstAddress, final long dstCapacity) {
        if (info.fps() <= 0) {
            throw new MediaException(decoder.label, "frame rate unknown: request frames by timestamp instead");
        }
        final double[] seconds = new double[indices.length];
        for (int i = 0; i < indices.length; i++) {
            if (indices[i] < 0) {
                throw new IllegalArgumentException("indices[" + i + "] is " + indices[i]
                        + ": indices must be at least 0");
            }
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
     * @param maxFrames most frames to write in this call, at least 1
     * @param spec the per-frame output description
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available; at least {@code maxFrames * spec.bytes()}
     * @return frames written, 0 when the stream has ended
     * @throws IllegalArgumentException when {@code k} or {@code maxFrames} is below 1
     */
    public int readEvery(final int k, final int maxFrames, final ImageSpec spec, final long dstAddress,
                         final long dstCapacity) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1: " + k);
        }
        if (maxFrames < 1) { // 0 frames written is how the end of the stream reads: a loop would stop, silently
            throw new IllegalArgumentException("maxFrames must be >= 1: " + maxFrames);
        }
        checkRequest(maxFrames, spec, dstCapacity);
        start();
        if (!sequential) {
            restart();
            ordinal = 0;
            sequential = true;
        }
        int written = 0;
        while (written < maxFrames && advance()) {
            if (ordinal++ % k == 0) {
                scale(frame, spec, dstAddress + (long) written * spec.bytes());
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
                    + " (MediaLimits.maxFrames)");
        }
        if ((long) frames * spec.bytes() > dstCapacity) {
            throw new MediaException(decoder.label, "destination holds " + dstCapacity + " bytes; " + frames
                    + " frames need " + (long) frames * spec.bytes());
        }
    }

    /**
     * {@return the time of a frame just decoded} Its timestamp, or, without one, that of the last frame with one plus
     * one frame period for each frame since (0 for the stream's first frame; NaN when the position is unknown after a
     * seek). The frame rate, not the frames' durations: the raw H.264 demuxer stamps the flushed frames 1 tick long.
     */
    private double secondsOf(final AVFrame f) {
        final long ts = timestampOf(f);
        final double t;
        if (ts != avutil.AV_NOPTS_VALUE) {
            t = (ts - originPts) * timeBase;
            anchorSeconds = t;
            framesSinceAnchor = 0;
        } else if (atStart) {
            t = 0;
            anchorSeconds = 0;
            framesSinceAnchor = 0;
        } else {
            framesSinceAnchor++;
            // n / fps, not a running sum: index i must map to exactly i / fps, whatever the rounding of each step
            t = anchorSeconds + (info.fps() > 0 ? framesSinceAnchor / info.fps()
                    : framesSinceAnchor * Math.max(0, f.duration()) * timeBase);
        }
        atStart = false;
        return t;
    }

    private static long timestampOf(final AVFrame f) {
        return f.best_effort_timestamp() != avutil.AV_NOPTS_VALUE ? f.best_effort_timestamp() : f.pts();
    }

    private void scale(final AVFrame f, final ImageSpec spec, final long address) {
        final AVPixFmtDescriptor desc = avutil.av_pix_fmt_desc_get(f.format());
        if (desc == null || desc.isNull()) { // a corrupt stream can yield a frame without a pixel format
            throw new MediaException(decoder.label, "decoder produced a frame with no pixel format ("
                    + f.format() + "); the stream is corrupt");
        }
        plan.compute(spec, f.width(), f.height(), FrameScaler.cropAlignLog2W(desc), FrameScaler.cropAlignLog2H(desc));
        scaler.scale(f, plan, spec, address, decoder.label);
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
