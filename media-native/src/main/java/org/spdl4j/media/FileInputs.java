package org.spdl4j.media;

import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.PointerPointer;

import java.nio.file.Path;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * Opening and closing media files (FFmpeg's file protocol) with stream info read, and header arithmetic.
 *
 * <p>Thread safe (stateless); each returned context belongs to the caller, who must {@link #close} it.
 */
final class FileInputs {
    private FileInputs() {
    }

    /**
     * Opens a file and reads its stream info.
     *
     * @param path the file
     * @return the format context, owned by the caller
     */
    static AVFormatContext open(final Path path) {
        FFmpeg.init();
        final String label = path.toString();
        final AVFormatContext format = new AVFormatContext(null);
        // Through FFmpeg's file protocol by name: a relative path whose first segment looks like a scheme
        // ("clip:01.mp4", "concat:...", "http:...") would otherwise be taken for a protocol.
        final String url = "file:" + path.toAbsolutePath();
        // Local files only: a playlist-like file (HLS, ffconcat) may name other local files, never a network URL.
        final AVDictionary options = new AVDictionary(null);
        final int ret;
        try {
            FFmpeg.check(NativeAllocations.dictSet(options, "protocol_whitelist", "file"), label,
                    "av_dict_set(protocol_whitelist), without which the file is not opened");
            ret = avformat.avformat_open_input(format, url, (AVInputFormat) null, options);
        } finally {
            avutil.av_dict_free(options);
        }
        if (ret < 0) {
            throw FFmpeg.failure(ret, label, "avformat_open_input"); // nothing allocated on failure
        }
        NativeResourceCounter.allocated(Kind.FORMAT_CONTEXT);
        final int info = avformat.avformat_find_stream_info(format, (PointerPointer<?>) null);
        if (info < 0) {
            close(format);
            throw FFmpeg.failure(info, label, "avformat_find_stream_info");
        }
        return format;
    }

    /**
     * Closes a context from {@link #open}.
     *
     * @param format the context
     */
    static void close(final AVFormatContext format) {
        avformat.avformat_close_input(format);
        NativeResourceCounter.freed(Kind.FORMAT_CONTEXT);
    }

    /**
     * A stream's duration in seconds: the stream's own, else the container's, else 0 when unknown.
     *
     * @param format the container
     * @param stream the stream
     * @return seconds
     */
    static double durationSeconds(final AVFormatContext format, final AVStream stream) {
        if (stream.duration() != avutil.AV_NOPTS_VALUE && stream.duration() > 0) {
            return stream.duration() * avutil.av_q2d(stream.time_base());
        }
        if (format.duration() != avutil.AV_NOPTS_VALUE && format.duration() > 0) {
            return format.duration() / (double) avutil.AV_TIME_BASE;
        }
        return 0;
    }
}
