package org.spdl4j.media;

import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.PointerPointer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * Opening and closing media files (FFmpeg's file protocol) with stream info read ({@link HeaderDurations} reads
 * their durations).
 *
 * <p>Each file is opened once: the I/O context its format is probed through is the one the demuxer reads, owned with
 * the format context and closed by {@link #close}.
 *
 * <p>Thread safe (stateless); each returned context belongs to the caller, who must {@link #close} it.
 */
final class FileInputs {
    private FileInputs() {
    }

    /**
     * Opens a file and reads its stream info.
     *
     * <p>Reading stream info decodes a few frames of streams whose header leaves their size or pixel format open
     * (MPEG-TS, raw streams): those decoders get {@code max_pixels}, so a frame over the limit is refused before its
     * buffers are allocated (its stream then reports a size of 0 x 0) instead of being decoded at full size.
     *
     * @param path the file
     * @param maxPixels the largest frame stream info may decode ({@link MediaLimits#maxPixels()})
     * @return the format context, owned by the caller
     * @throws MediaException when the file cannot be opened, is not a media file FFmpeg recognises, or is an ffconcat
     *         list ({@link #probe})
     */
    static AVFormatContext open(final Path path, final long maxPixels) {
        return open(path, path.toString(), maxPixels);
    }

    /**
     * Opens a file and reads its stream info, naming it {@code label} in errors (e.g. a loader's sample key).
     *
     * @param path the file
     * @param label names the input in errors
     * @param maxPixels the largest frame stream info may decode ({@link MediaLimits#maxPixels()})
     * @return the format context, owned by the caller
     * @throws MediaException as {@link #open(Path, long)}
     */
    static AVFormatContext open(final Path path, final String label, final long maxPixels) {
        final String problem = problem(path);
        if (problem != null) {
            // Checked first: opening a FIFO for reading blocks until a writer opens it, and a directory "opens" only
            // to fail later with an unrelated error.
            throw new MediaException(label, problem);
        }
        FFmpeg.init();
        // Through FFmpeg's file protocol by name: a relative path whose first segment looks like a scheme
        // ("clip:01.mp4", "concat:...", "http:...") would otherwise be taken for a protocol.
        final String url = "file:" + path.toAbsolutePath();
        final AVIOContext io = openFile(url, label);
        final AVFormatContext format;
        try {
            format = openFormat(io, url, label);
        } catch (final RuntimeException | Error e) {
            closeFile(io);
            throw e;
        }
        final int info;
        try {
            info = findStreamInfo(format, maxPixels, label);
        } catch (final RuntimeException | Error e) {
            close(format);
            throw e;
        }
        if (info < 0) {
            close(format);
            throw FFmpeg.failure(info, label, "avformat_find_stream_info");
        }
        return format;
    }

    /**
     * {@return why a path cannot be opened as a media file, e.g. "no such file", "empty file (0 bytes)" or "not a
     * regular file (a FIFO); pass a file, or read the stream into memory first", or null when it is a regular file
     * with bytes in it (links followed)} Never opens the path, so a FIFO does not block.
     *
     * @param path the path
     */
    static String problem(final Path path) {
        final BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (final NoSuchFileException e) {
            return "no such file";
        } catch (final IOException e) {
            return "cannot be read (" + e + ")";
        }
        if (attributes.isRegularFile()) {
            return attributes.size() == 0 ? "empty file (0 bytes): nothing to decode" : null;
        }
        final String kind;
        if (attributes.isDirectory()) {
            kind = "a directory";
        } else {
            kind = otherKind(path);
        }
        return "not a regular file (" + kind + "); pass a media file"
                + (attributes.isDirectory() ? "" : ", or read the stream into memory and decode the bytes");
    }

    /** {@return "a FIFO", "a socket", "a character device" or "a block device", from the file's mode} */
    private static String otherKind(final Path path) {
        try {
            final int type = ((Integer) Files.getAttribute(path, "unix:mode")) & 0xF000; // S_IFMT
            return switch (type) {
                case 0x1000 -> "a FIFO";
                case 0xC000 -> "a socket";
                case 0x2000 -> "a character device";
                case 0x6000 -> "a block device";
                default -> "a special file";
            };
        } catch (final IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "a FIFO, socket or device";
        }
    }

    /**
     * Opens the demuxer on the file already open as {@code io}, so the file is opened once: FFmpeg reads through the
     * caller's context (AVFMT_FLAG_CUSTOM_IO) and leaves closing it to {@link #close}. The format found by
     * {@link #probe} is the one opened (no second probe), so its refusal cannot be bypassed.
     *
     * @return the format context; on failure nothing is left allocated but {@code io}, which the caller closes
     */
    private static AVFormatContext openFormat(final AVIOContext io, final String url, final String label) {
        final AVInputFormat inputFormat = probe(io, url, label);
        final AVFormatContext format = NativeAllocations.allocate(avformat::avformat_alloc_context,
                "avformat_alloc_context", label);
        format.pb(io);
        // Local files only: a playlist-like file (HLS) may name other local files, never a network URL.
        final AVDictionary options = localFilesOnly(label);
        final int ret;
        try {
            ret = avformat.avformat_open_input(format, url, inputFormat, options);
        } finally {
            avutil.av_dict_free(options);
        }
        if (ret < 0) {
            // avformat_open_input freed the context; a caller's I/O context stays open
            throw FFmpeg.failure(ret, label, "avformat_open_input");
        }
        NativeResourceCounter.allocated(Kind.FORMAT_CONTEXT);
        return format;
    }

    /**
     * avformat_find_stream_info with each stream's decoder held to {@code maxPixels} (one option set per stream); also
     * used for inputs in memory ({@link StreamDecoder#open(long, long, String, int, MediaLimits)}).
     *
     * @return avformat_find_stream_info's result (negative: an AVERROR)
     */
    static int findStreamInfo(final AVFormatContext format, final long maxPixels, final String label) {
        final int streams = format.nb_streams();
        final PointerPointer<AVDictionary> options = NativeAllocations.allocate(
                () -> new PointerPointer<AVDictionary>(Math.max(1, streams)), "stream info options", label);
        // What the container declares: a decoder that refuses a frame over the limit leaves the stream 0 x 0, and the
        // caller's limit check must still see (and name) the declared size. Per file, not per frame.
        final int[] declared = new int[2 * streams];
        try {
            final String limit = Long.toString(Math.min(maxPixels, Integer.MAX_VALUE)); // max_pixels is an int64 option
            for (int i = 0; i < streams; i++) {
                declared[2 * i] = format.streams(i).codecpar().width();
                declared[2 * i + 1] = format.streams(i).codecpar().height();
                final AVDictionary entry = new AVDictionary(null);
                final int set = NativeAllocations.dictSet(entry, "max_pixels", limit);
                options.put(i, entry); // freed below whether or not the entry was set
                FFmpeg.check(set, label, "av_dict_set(max_pixels), without which stream info decodes at any size");
            }
            final int ret = avformat.avformat_find_stream_info(format, options);
            for (int i = 0; i < Math.min(streams, format.nb_streams()); i++) {
                final AVCodecParameters par = format.streams(i).codecpar();
                if (par.width() <= 0 && par.height() <= 0 && declared[2 * i] > 0 && declared[2 * i + 1] > 0) {
                    par.width(declared[2 * i]).height(declared[2 * i + 1]);
                }
            }
            return ret;
        } finally {
            for (int i = 0; i < streams; i++) {
                final AVDictionary entry = options.get(AVDictionary.class, i);
                if (entry != null && !entry.isNull()) {
                    avutil.av_dict_free(entry);
                }
            }
            options.close();
        }
    }

    /**
     * Finds the file's format as avformat_open_input would (FFmpeg's probe of its first bytes and name), refusing an
     * ffconcat list: the concat demuxer opens the files a list names while reading its header, so a list that names
     * itself, or a loop of lists, recurses until the native stack overflows and the JVM dies. Leaves {@code io}
     * rewound to the file's start (the probed bytes stay buffered), ready for the demuxer.
     *
     * @return the format, a static FFmpeg object (nothing to free)
     */
    private static AVInputFormat probe(final AVIOContext io, final String url, final String label) {
        final AVInputFormat format = new AVInputFormat(null);
        final int score = avformat.av_probe_input_buffer2(io, format, url, null, 0, 0);
        if (score < 0) {
            throw FFmpeg.failure(score, label, "av_probe_input_buffer2 (finding the file's format)");
        }
        if ("concat".equals(format.name().getString())) {
            throw new MediaException(label, "an ffconcat list is not opened (its demuxer opens the files it names, and"
                    + " a list that names itself recurses until the process crashes); decode the files it lists");
        }
        return format;
    }

    /** {@return the file opened for reading by FFmpeg's file protocol, for {@link #closeFile}} */
    private static AVIOContext openFile(final String url, final String label) {
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
        return io;
    }

    private static void closeFile(final AVIOContext io) {
        avformat.avio_closep(io);
        NativeResourceCounter.freed(Kind.IO_CONTEXT);
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
        final AVIOContext io = format.pb(); // the caller's (custom I/O): avformat_close_input leaves it open
        avformat.avformat_close_input(format);
        NativeResourceCounter.freed(Kind.FORMAT_CONTEXT);
        closeFile(io);
    }
}
