package org.spdl4j.media;

import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.avutil;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.function.BiConsumer;

/**
 * Generates test media at test time with FFmpeg's own encoders, in process (the bundled ffmpeg program needs
 * libpulse, which minimal machines lack). Test code: simple, allocation-happy, frees what it allocates.
 */
final class FfmpegTestEncoder {
    private FfmpegTestEncoder() {
    }

    /**
     * Encodes one image with an FFmpeg encoder; the packet is the complete file (PNG, JPEG, WebP, BMP encoders).
     *
     * @param fill writes pixels into the frame (frame, unused index)
     */
    static byte[] image(final String encoder, final int pixFmt, final int width, final int height,
                        final String options, final BiConsumer<AVFrame, Integer> fill) {
        FFmpeg.init();
        final AVCodec codec = avcodec.avcodec_find_encoder_by_name(encoder);
        if (codec == null || codec.isNull()) {
            throw new IllegalStateException("no encoder " + encoder);
        }
        final AVCodecContext ctx = avcodec.avcodec_alloc_context3(codec);
        final AVFrame frame = avutil.av_frame_alloc();
        final AVPacket pkt = avcodec.av_packet_alloc();
        final AVDictionary dict = new AVDictionary(null);
        try {
            ctx.width(width).height(height).pix_fmt(pixFmt).time_base(avutil.av_make_q(1, 25));
            if (encoder.equals("mjpeg")) {
                ctx.color_range(avutil.AVCOL_RANGE_JPEG);
                ctx.flags(ctx.flags() | avcodec.AV_CODEC_FLAG_QSCALE);
                ctx.global_quality(avutil.FF_QP2LAMBDA * 2);
            }
            if (options != null) {
                avutil.av_dict_parse_string(dict, options, "=", ",", 0);
            }
            check(avcodec.avcodec_open2(ctx, codec, dict), "avcodec_open2 " + encoder);
            frame.format(pixFmt).width(width).height(height).color_range(ctx.color_range());
            check(avutil.av_frame_get_buffer(frame, 0), "av_frame_get_buffer");
            fill.accept(frame, 0);
            frame.pts(0);
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            check(avcodec.avcodec_send_frame(ctx, frame), "send_frame");
            check(avcodec.avcodec_send_frame(ctx, null), "flush");
            while (avcodec.avcodec_receive_packet(ctx, pkt) >= 0) {
                final byte[] b = new byte[pkt.size()];
                pkt.data().get(b);
                out.write(b, 0, b.length);
                avcodec.av_packet_unref(pkt);
            }
            return out.toByteArray();
        } finally {
            avutil.av_dict_free(dict);
            avcodec.av_packet_free(pkt);
            avutil.av_frame_free(frame);
            avcodec.avcodec_free_context(ctx);
        }
    }

    /** Copies packed pixel rows (rowBytes each) into plane 0 of a frame. */
    static void putPacked(final AVFrame frame, final byte[] pixels, final int rowBytes) {
        for (int y = 0; y < frame.height(); y++) {
            frame.data(0).position((long) y * frame.linesize(0)).put(pixels, y * rowBytes, rowBytes);
        }
    }

    /** Luma value of bit {@code b} of the frame-index code: 8 vertical bands, white = 1. */
    static final int BANDS = 8;

    /**
     * Writes a video whose frame i shows i (mod 256) as 8 vertical black/white bands (bit 7 leftmost), so decoded
     * frames can be identified despite lossy coding. No B-frames; the container comes from the file name.
     */
    static void video(final Path path, final String encoder, final int width, final int height, final int frames,
                      final int fps, final int gop) {
        video(path, encoder, width, height, frames, fps, gop, 0);
    }

    /**
     * Like {@link #video(Path, String, int, int, int, int, int)}, with up to {@code maxBFrames} B-frames between
     * reference frames (encoders that support them: mpeg4, mpeg2video), so decode order differs from display order.
     */
    static void video(final Path path, final String encoder, final int width, final int height, final int frames,
                      final int fps, final int gop, final int maxBFrames) {
        final long[] pts = new long[frames];
        java.util.Arrays.setAll(pts, i -> i);
        encode(path, encoder, width, height, pts, fps, fps, gop, maxBFrames, 1, 0);
    }

    /**
     * Like {@link #video(Path, String, int, int, int, int, int)}, with every timestamp in the file shifted by
     * {@code startSeconds} (the muxer's {@code output_ts_offset}, as {@code ffmpeg -output_ts_offset} writes it): the
     * stream starts at that time, as a clip cut from a longer recording does.
     */
    static void videoStartingAt(final Path path, final String encoder, final int width, final int height,
                                final int frames, final int fps, final int gop, final double startSeconds) {
        final long[] pts = new long[frames];
        java.util.Arrays.setAll(pts, i -> i);
        encode(path, encoder, width, height, pts, fps, fps, gop, 0, 1, startSeconds);
    }

    /**
     * Writes a video whose frame i (identified as in {@link #video(Path, String, int, int, int, int, int)}) is shown
     * at {@code pts[i] / timeBaseDen} seconds: a variable frame rate when the gaps differ. Each frame lasts until the
     * next one; the last as long as the gap before it.
     *
     * @param fps the nominal rate given to the encoder (rate control, and the header of containers that store one)
     */
    static void videoAt(final Path path, final String encoder, final int width, final int height, final long[] pts,
                        final int timeBaseDen, final int fps, final int gop) {
        encode(path, encoder, width, height, pts, timeBaseDen, fps, gop, 0, 0, 0);
    }

    /**
     * Encodes frame i at {@code pts[i]} (time base {@code 1/timeBaseDen}) into the container the file name implies.
     *
     * @param packetDuration each packet's duration in the time base, or 0 to keep the frame's (the encoder copies it)
     * @param startSeconds the muxer's output_ts_offset: added to every timestamp written
     */
    private static void encode(final Path path, final String encoder, final int width, final int height,
                               final long[] pts, final int timeBaseDen, final int fps, final int gop,
                               final int maxBFrames, final long packetDuration, final double startSeconds) {
        FFmpeg.init();
        final AVFormatContext oc = new AVFormatContext(null);
        check(avformat.avformat_alloc_output_context2(oc, null, null, path.toString()), "alloc_output");
        final AVCodec codec = avcodec.avcodec_find_encoder_by_name(encoder);
        if (codec == null || codec.isNull()) {
            avformat.avformat_free_context(oc);
            throw new IllegalStateException("no encoder " + encoder);
        }
        final AVCodecContext enc = avcodec.avcodec_alloc_context3(codec);
        final AVFrame frame = avutil.av_frame_alloc();
        final AVPacket pkt = avcodec.av_packet_alloc();
        try {
            final AVStream st = avformat.avformat_new_stream(oc, null);
            final AVRational tb = avutil.av_make_q(1, timeBaseDen);
            enc.width(width).height(height).pix_fmt(avutil.AV_PIX_FMT_YUV420P).time_base(tb)
                    .framerate(avutil.av_make_q(fps, 1)).gop_size(gop).max_b_frames(maxBFrames);
            enc.flags(enc.flags() | avcodec.AV_CODEC_FLAG_QSCALE);
            enc.global_quality(avutil.FF_QP2LAMBDA * 3);
            if ((oc.oformat().flags() & avformat.AVFMT_GLOBALHEADER) != 0) {
                enc.flags(enc.flags() | avcodec.AV_CODEC_FLAG_GLOBAL_HEADER);
            }
            check(avcodec.avcodec_open2(enc, codec, (AVDictionary) null), "open " + encoder);
            check(avcodec.avcodec_parameters_from_context(st.codecpar(), enc), "params");
            st.time_base(tb);
            oc.output_ts_offset(Math.round(startSeconds * avutil.AV_TIME_BASE));
            writeHeader(oc, path);
            frame.format(avutil.AV_PIX_FMT_YUV420P).width(width).height(height);
            check(avutil.av_frame_get_buffer(frame, 0), "get_buffer");
            final byte[] row = new byte[width];
            for (int i = 0; i < pts.length; i++) {
                check(avutil.av_frame_make_writable(frame), "writable");
                for (int x = 0; x < width; x++) {
                    final int bit = BANDS - 1 - x * BANDS / width;
                    row[x] = (byte) (((i >> bit) & 1) != 0 ? 235 : 16);
                }
                for (int y = 0; y < height; y++) {
                    frame.data(0).position((long) y * frame.linesize(0)).put(row, 0, width);
                }
                for (int p = 1; p <= 2; p++) {
                    for (int y = 0; y < (height + 1) / 2; y++) {
                        for (int x = 0; x < (width + 1) / 2; x++) {
                            frame.data(p).put((long) y * frame.linesize(p) + x, (byte) 128);
                        }
                    }
                }
                frame.pts(pts[i]);
                frame.duration(i + 1 < pts.length ? pts[i + 1] - pts[i] : i > 0 ? pts[i] - pts[i - 1] : 1);
                check(avcodec.avcodec_send_frame(enc, frame), "send_frame");
                drain(oc, enc, st, pkt, packetDuration);
            }
            finish(oc, enc, st, pkt, packetDuration);
        } finally {
            free(oc, enc, frame, pkt);
        }
    }

    /**
     * Writes a tone (every channel the same sine at {@code hz}, amplitude 0.5) with an encoder that takes interleaved
     * signed 16-bit samples (mp2, pcm_*), in the container the file name implies. Files of one codec written with
     * different channel counts can be concatenated into one stream whose layout changes mid-way.
     */
    static void tone(final Path path, final String encoder, final int channels, final int rate, final double seconds,
                     final double hz) {
        toneStartingAt(path, encoder, channels, rate, seconds, hz, 0);
    }

    /**
     * Like {@link #tone}, with every timestamp in the file shifted by {@code startSeconds} (the muxer's
     * {@code output_ts_offset}): the stream starts at that time.
     */
    static void toneStartingAt(final Path path, final String encoder, final int channels, final int rate,
                               final double seconds, final double hz, final double startSeconds) {
        FFmpeg.init();
        final AVFormatContext oc = new AVFormatContext(null);
        check(avformat.avformat_alloc_output_context2(oc, null, null, path.toString()), "alloc_output");
        final AVCodec codec = avcodec.avcodec_find_encoder_by_name(encoder);
        final AVCodecContext enc = avcodec.avcodec_alloc_context3(codec);
        final AVFrame frame = avutil.av_frame_alloc();
        final AVPacket pkt = avcodec.av_packet_alloc();
        try {
            final AVStream st = avformat.avformat_new_stream(oc, null);
            enc.sample_fmt(avutil.AV_SAMPLE_FMT_S16).sample_rate(rate).bit_rate(128_000L * channels)
                    .time_base(avutil.av_make_q(1, rate));
            avutil.av_channel_layout_default(enc.ch_layout(), channels);
            check(avcodec.avcodec_open2(enc, codec, (AVDictionary) null), "open " + encoder);
            check(avcodec.avcodec_parameters_from_context(st.codecpar(), enc), "params");
            st.time_base(enc.time_base());
            oc.output_ts_offset(Math.round(startSeconds * avutil.AV_TIME_BASE));
            writeHeader(oc, path);
            final int perFrame = enc.frame_size() > 0 ? enc.frame_size() : 1024;
            final long total = Math.round(rate * seconds);
            for (long start = 0; start < total; start += perFrame) {
                final int n = (int) Math.min(perFrame, total - start);
                frame.format(avutil.AV_SAMPLE_FMT_S16).sample_rate(rate).nb_samples(perFrame);
                check(avutil.av_channel_layout_copy(frame.ch_layout(), enc.ch_layout()), "layout");
                check(avutil.av_frame_get_buffer(frame, 0), "get_buffer");
                final org.bytedeco.javacpp.ShortPointer samples = new org.bytedeco.javacpp.ShortPointer(frame.data(0));
                for (int i = 0; i < perFrame; i++) {
                    final short v = i < n
                            ? (short) Math.round(0.5 * 32767 * Math.sin(2 * Math.PI * hz * (start + i) / rate)) : 0;
                    for (int c = 0; c < channels; c++) {
                        samples.put((long) i * channels + c, v);
                    }
                }
                frame.pts(start);
                check(avcodec.avcodec_send_frame(enc, frame), "send_frame");
                avutil.av_frame_unref(frame);
                drain(oc, enc, st, pkt, 0); // the audio encoder sets each packet's duration
            }
            finish(oc, enc, st, pkt, 0);
        } finally {
            free(oc, enc, frame, pkt);
        }
    }

    /** Opens the output file and writes the container header (the streams are set up). */
    private static void writeHeader(final AVFormatContext oc, final Path path) {
        final AVIOContext pb = new AVIOContext(null);
        check(avformat.avio_open(pb, path.toString(), avformat.AVIO_FLAG_WRITE), "avio_open");
        oc.pb(pb);
        check(avformat.avformat_write_header(oc, (AVDictionary) null), "write_header");
    }

    /**
     * Writes every packet the encoder has ready.
     *
     * @param duration each packet's duration in the encoder's time base, or 0 to keep the encoder's
     */
    private static void drain(final AVFormatContext oc, final AVCodecContext enc, final AVStream st, final AVPacket pkt,
                              final long duration) {
        while (avcodec.avcodec_receive_packet(enc, pkt) >= 0) {
            if (duration > 0) {
                pkt.duration(duration);
            }
            avcodec.av_packet_rescale_ts(pkt, enc.time_base(), st.time_base());
            pkt.stream_index(st.index());
            check(avformat.av_interleaved_write_frame(oc, pkt), "write_frame");
        }
    }

    /** Flushes the encoder into the file and writes the trailer. */
    private static void finish(final AVFormatContext oc, final AVCodecContext enc, final AVStream st,
                               final AVPacket pkt, final long duration) {
        check(avcodec.avcodec_send_frame(enc, null), "flush");
        drain(oc, enc, st, pkt, duration);
        check(avformat.av_write_trailer(oc), "trailer");
    }

    /**
     * Closes the file and frees the muxer, encoder, frame and packet (any of them may be unused). The file is open
     * only once {@link #writeHeader} ran: avio_closep on a muxer without one dereferences a null pointer (the JVM dies
     * instead of the test failing, e.g. when avcodec_open2 refuses the encoder's settings).
     */
    private static void free(final AVFormatContext oc, final AVCodecContext enc, final AVFrame frame,
                             final AVPacket pkt) {
        if (oc.pb() != null && !oc.pb().isNull()) {
            avformat.avio_closep(oc.pb());
        }
        avcodec.av_packet_free(pkt);
        avutil.av_frame_free(frame);
        avcodec.avcodec_free_context(enc);
        avformat.avformat_free_context(oc);
    }

    /** Reads the frame index back from decoded RGB/gray pixels of one frame (HWC, channels per pixel). */
    static int frameIndex(final byte[] pixels, final int offset, final int width, final int height,
                          final int channels) {
        int v = 0;
        final int y = height / 2;
        for (int b = 0; b < BANDS; b++) {
            final int x = (BANDS - 1 - b) * width / BANDS + width / (2 * BANDS);
            final int luma = pixels[offset + (y * width + x) * channels] & 0xFF;
            if (luma > 128) {
                v |= 1 << b;
            }
        }
        return v;
    }

    private static void check(final int ret, final String what) {
        if (ret < 0) {
            throw new IllegalStateException(what + ": " + FFmpeg.errorText(ret));
        }
    }
}
