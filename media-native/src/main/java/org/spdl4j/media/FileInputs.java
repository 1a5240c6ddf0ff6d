package org.spdl4j.media;

import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
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
     * @throws MediaException when the file cannot be opened, is not a media file FFmpeg recognises, or is an ffconcat
     *         list ({@link #probe})
     */
    static AVFormatContext open(final Path path) {
        FFmpeg.init();
        final String label = path.toString();
        // Through FFmpeg's file protocol by name: a relative path whose first segment looks like a scheme
        // ("clip:01.mp4", "concat:...", "http:...") would otherwise be taken for a protocol.
        final String url = "file:" + path.toAbsolutePath();
        // The format found here is the one opened (no second probe), so the refusal in probe() cannot be bypassed.
        final AVInputFormat inputFormat = probe(url, label);
        final AVFormatContext format = new AVFormatContext(null);
        // Local files only: a playlist-like file (HLS) may name other local files, never a network URL.
        final AVDictionary options = localFilesOnly(label);
        final int ret;
        try {
            ret = avformat.avformat_open_input(format, url, inputFormat, options);
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
     * Finds the file's format as avformat_open_input would (FFmpeg's probe of its first bytes and name), refusing an
     * ffconcat list: the concat demuxer opens the files a list names while reading its header, so a list that names
     * itself, or a loop of lists, recurses until the native stack overflows and the JVM dies. Opens and closes the
     * file once more than a plain open would: a few system calls and the probe's first kilobytes, per file.
     *
     * @return the format, a static FFmpeg object (nothing to free)
     */
    private static AVInputFormat probe(final String url, final String label) {
        final AVIOContext io = new AVIOContext(null);
        final AVDictionary options = localFilesOnly(label);
        final int opened;
        try {
            opened = avformat.avio_open2(io, url, avformat.AVIO_FLAG_READ, null, options);
        } finally {
            avutil.av_dict_free(options);
        }
        if (opened < 0) {
            throw FFmpeg.failure(opened, label, "avio_open2"); // nothing allocated on failure
        }
        NativeResourceCounter.allocated(Kind.IO_CONTEXT);
        final AVInputFormat format = new AVInputFormat(null);
        final int score;
        try {
            score = avformat.av_probe_input_buffer2(io, format, url, null, 0, 0);
        } finally {
            avformat.avio_closep(io);
            NativeResourceCounter.freed(Kind.IO_CONTEXT);
        }
        if (score < 0) {
            throw FFmpeg.failure(score, label, "av_probe_input_buffer2 (finding the file's format)");
        }
        if ("concat".equals(format.name().getString())) {
            throw new MediaException(label, "an ffconcat list is not opened (its demuxer opens the files it names, and"
                    + " a list that names itself recurses until the process crashes); decode the files it lists");
        }
        return format;
    }

    /** {@return options allowing the file protocol only, for the caller to free with av_dict_free} */
    private static AVDictionary localFilesOnly(final String label) {
        final AVDictionary options = new AVDictionary(null);
        final int set = NativeAllocations.dictSet(options, "protocol_whitelist", "file");
        if (set < 0) {
            avutil.av_dict_free(options);
            throw FFmpeg.failure(set, label, "av_dict_set(protocol_whitelist), without which the file is not opened");
        }
        return options;
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
