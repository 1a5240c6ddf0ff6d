package org.spdl4j.media;

import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a media file's headers (and FFmpeg's stream-info probe) into a {@link MediaInfo}.
 *
 * <p>Thread safe (stateless; each call opens and frees its own context). Not a hot-path call: it allocates freely.
 */
public final class MediaProbe {
    private MediaProbe() {
    }

    /**
     * Probes a file.
     *
     * @param path the file
     * @return what it contains
     * @throws MediaException when the path is not a regular file ({@link #problem}), or FFmpeg cannot read it
     */
    public static MediaInfo probe(final Path path) {
        // Stream info decodes no frame over the default pixel limit (such a stream may then report 0 x 0).
        final AVFormatContext format = FileInputs.open(path, MediaLimits.DEFAULT.maxPixels());
        try {
            final List<MediaInfo.Stream> streams = new ArrayList<>();
            for (int i = 0; i < format.nb_streams(); i++) {
                final AVStream st = format.streams(i);
                final AVCodecParameters par = st.codecpar();
                final int type = par.codec_type();
                final boolean video = type == avutil.AVMEDIA_TYPE_VIDEO;
                final boolean audio = type == avutil.AVMEDIA_TYPE_AUDIO;
                final AVRational rate = video ? avformat.av_guess_frame_rate(format, st, null) : null;
                streams.add(new MediaInfo.Stream(i, string(avutil.av_get_media_type_string(type)),
                        string(avcodec.avcodec_get_name(par.codec_id())),
                        video ? par.width() : 0, video ? par.height() : 0,
                        rate != null && rate.den() != 0 ? avutil.av_q2d(rate) : 0,
                        audio ? par.sample_rate() : 0, audio ? par.ch_layout().nb_channels() : 0,
                        HeaderDurations.streamSeconds(format, st), Math.max(0, st.nb_frames())));
            }
            return new MediaInfo(path.toString(), string(format.iformat().name()),
                    HeaderDurations.containerSeconds(format),
                    Math.max(0, format.bit_rate()), List.copyOf(streams));
        } finally {
            FileInputs.close(format);
        }
    }

    /**
     * {@return why a path cannot be probed, e.g. "no such file" or "not a regular file (a FIFO); ...", or null when it
     * is a regular file} Never opens the path: a FIFO does not block.
     *
     * @param path the path
     */
    public static String problem(final Path path) {
        return FileInputs.problem(path);
    }

    private static String string(final BytePointer p) {
        return p == null || p.isNull() ? "unknown" : p.getString();
    }
}
