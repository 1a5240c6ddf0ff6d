package org.spdl4j.media;

import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionaryEntry;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.avutil;

/**
 * Durations read from a file's headers, as spans: from a stream's first frame to the end of its last, whatever the
 * container stores as its "duration" (FFmpeg passes that on as it finds it).
 *
 * <ul>
 *   <li>A duration of the stream's own (MP4, MOV, MPEG-TS, AVI, WAV, FLAC, ...) is a span: taken as it is.</li>
 *   <li>Otherwise the container's. Most containers store the span from the file's first timestamp (FLV; Matroska
 *   written by mkvmerge or GStreamer, as its specification reads; FFmpeg's own estimates). Two store an end
 *   timestamp, which counts a start time after 0 as if it were content: Matroska and WebM written by FFmpeg
 *   (muxing application "Lavf...") or libwebm store the largest frame end, NUT's index the largest pts (the last
 *   frame's start). For these the stream's start time is subtracted, and for NUT one frame added. A clip cut from
 *   10 s of a recording, 60 frames at 25 fps, was otherwise 12.4 s long: 310 frames, so uniform sampling took
 *   mostly copies of the last frame, and a duration limit refused it.</li>
 * </ul>
 *
 * <p>The writer of a Matroska file is known by its muxing application (FFmpeg's "encoder" metadata), which a global
 * ENCODER tag overrides: a file renamed so keeps the stored duration, as before.
 *
 * <p>Thread safe (stateless). Header fields only: no I/O, nothing allocated beyond JavaCPP's small wrappers.
 */
final class HeaderDurations {
    /** The container's duration is a span (or FFmpeg's estimate of one). */
    private static final int SPAN = 0;
    /** The container's duration is the end of the last frame, counted from timestamp 0 (FFmpeg's Matroska). */
    private static final int LAST_FRAME_END = 1;
    /** The container's duration is the start of the last frame, counted from timestamp 0 (NUT's index). */
    private static final int LAST_FRAME_START = 2;

    private HeaderDurations() {
    }

    /**
     * A stream's duration in seconds: the stream's own, else what the container's gives for this stream, else 0 when
     * unknown.
     *
     * @param format the container
     * @param stream the stream
     * @return seconds from the stream's first frame to the end of its last; 0 when unknown
     */
    static double streamSeconds(final AVFormatContext format, final AVStream stream) {
        if (stream.duration() != avutil.AV_NOPTS_VALUE && stream.duration() > 0) {
            return stream.duration() * avutil.av_q2d(stream.time_base());
        }
        if (format.duration() == avutil.AV_NOPTS_VALUE || format.duration() <= 0) {
            return 0;
        }
        final double stored = format.duration() / (double) avutil.AV_TIME_BASE;
        final int storage = storage(format);
        if (storage == SPAN) {
            return stored;
        }
        // A start before 0 (audio whose encoder delay the demuxer subtracted) lies inside the stored span already.
        final double start = Math.max(0, startSeconds(format, stream));
        final double span = stored - start + (storage == LAST_FRAME_START ? frameSeconds(format, stream) : 0);
        return span > 0 ? span : stored; // a start past the stored end: not an end time after all
    }

    /**
     * The file's duration in seconds: the container's span, or for a container that stores an end time the longest of
     * its streams' spans; 0 when unknown.
     *
     * @param format the container
     * @return seconds
     */
    static double containerSeconds(final AVFormatContext format) {
        if (format.duration() == avutil.AV_NOPTS_VALUE || format.duration() <= 0) {
            return 0;
        }
        if (storage(format) == SPAN) {
            return format.duration() / (double) avutil.AV_TIME_BASE;
        }
        double longest = 0;
        for (int i = 0; i < format.nb_streams(); i++) {
            longest = Math.max(longest, streamSeconds(format, format.streams(i)));
        }
        return longest;
    }

    /** {@return what the container's duration measures: {@link #SPAN}, {@link #LAST_FRAME_END} or the other} */
    private static int storage(final AVFormatContext format) {
        final String demuxer = format.iformat().name().getString();
        final int method = format.duration_estimation_method();
        if (demuxer.startsWith("matroska") && method == avformat.AVFMT_DURATION_FROM_STREAM
                && writtenWithEndTime(format)) {
            return LAST_FRAME_END;
        }
        if (demuxer.equals("nut") && method == avformat.AVFMT_DURATION_FROM_PTS) {
            return LAST_FRAME_START;
        }
        return SPAN;
    }

    /** {@return whether a Matroska file's writer stores the largest frame end as its duration (FFmpeg, libwebm)} */
    private static boolean writtenWithEndTime(final AVFormatContext format) {
        final AVDictionaryEntry encoder = avutil.av_dict_get(format.metadata(), "encoder", null, 0);
        if (encoder == null || encoder.isNull() || encoder.value() == null || encoder.value().isNull()) {
            return false;
        }
        final String writer = encoder.value().getString();
        return writer.startsWith("Lavf") || writer.startsWith("libwebm");
    }

    /** {@return the stream's first timestamp in seconds, else the file's, else 0} */
    private static double startSeconds(final AVFormatContext format, final AVStream stream) {
        if (stream.start_time() != avutil.AV_NOPTS_VALUE) {
            return stream.start_time() * avutil.av_q2d(stream.time_base());
        }
        return format.start_time() == avutil.AV_NOPTS_VALUE ? 0 : format.start_time() / (double) avutil.AV_TIME_BASE;
    }

    /** {@return one frame's duration in seconds (video: by the frame rate; audio: by the codec's frame size), or 0} */
    private static double frameSeconds(final AVFormatContext format, final AVStream stream) {
        final int type = stream.codecpar().codec_type();
        if (type == avutil.AVMEDIA_TYPE_VIDEO) {
            final AVRational rate = avformat.av_guess_frame_rate(format, stream, null);
            return rate.num() > 0 && rate.den() > 0 ? rate.den() / (double) rate.num() : 0;
        }
        if (type == avutil.AVMEDIA_TYPE_AUDIO) {
            final int samples = stream.codecpar().frame_size();
            final int rate = stream.codecpar().sample_rate();
            return samples > 0 && rate > 0 ? samples / (double) rate : 0;
        }
        return 0;
    }
}
