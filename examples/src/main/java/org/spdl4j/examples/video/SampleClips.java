package org.spdl4j.examples.video;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
import org.spdl4j.examples.AtomicFiles;

/**
 * The video example's own input: small MPEG-4 clips encoded in process with FFmpeg's libraries (no download, no
 * committed binaries, no ffmpeg program). Frame {@code i} of every clip shows {@code i mod 256} as 8 vertical
 * black/white bands (bit 7 leftmost), which survive lossy coding, so a sampled frame says which frame it is.
 *
 * <p>Not thread-safe (call from one thread); allocation-happy: this is set-up, not the pipeline.
 */
public final class SampleClips {
    /** Bands of the frame-index code. */
    public static final int BANDS = 8;

    private SampleClips() {
    }

    /**
     * Writes {@code count} clips {@code clip-000.mp4 ...} into {@code dir}, clip {@code k} with
     * {@code frames + 8 * (k % 4)} frames (so clips differ in length), unless they exist already.
     *
     * @param dir    the folder
     * @param count  how many clips
     * @param width  frame width (even)
     * @param height frame height (even)
     * @param frames frames of the shortest clip
     * @param fps    frame rate
     * @return the clip paths, in name order
     * @throws IOException when the folder cannot be written
     */
    public static List<Path> ensure(Path dir, int count, int width, int height, int frames, int fps)
        throws IOException {
        Files.createDirectories(dir);
        List<Path> clips = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            Path clip = dir.resolve(String.format(Locale.ROOT, "clip-%03d.mp4", k));
            if (!Files.exists(clip)) { // written whole or not at all: a cut clip would fail every later run
                int n = framesOf(k, frames);
                AtomicFiles.write(clip, tmp -> encode(tmp, width, height, n, fps));
            }
            clips.add(clip);
        }
        return clips;
    }

    /**
     * Frames in clip {@code k}.
     *
     * @param k      the clip index
     * @param frames frames of the shortest clip
     * @return {@code frames + 8 * (k % 4)}
     */
    public static int framesOf(int k, int frames) {
        return frames + 8 * (k % 4);
    }

    /**
     * Reads the frame index back from one decoded packed frame (HWC, 8-bit).
     *
     * @param pixels   the frame's bytes
     * @param offset   where the frame starts
     * @param width    width
     * @param height   height
     * @param channels bytes per pixel
     * @return the index mod 256
     */
    public static int frameIndex(byte[] pixels, int offset, int width, int height, int channels) {
        int v = 0;
        int y = height / 2;
        for (int b = 0; b < BANDS; b++) {
            int x = (BANDS - 1 - b) * width / BANDS + width / (2 * BANDS);
            if ((pixels[offset + (y * width + x) * channels] & 0xFF) > 128) {
                v |= 1 << b;
            }
        }
        return v;
    }

    private static void encode(Path path, int width, int height, int frames, int fps) throws IOException {
        avutil.av_log_set_level(avutil.AV_LOG_ERROR);
        AVFormatContext oc = new AVFormatContext(null);
        check(avformat.avformat_alloc_output_context2(oc, null, null, path.toString()), "alloc output", path);
        AVCodec codec = avcodec.avcodec_find_encoder(avcodec.AV_CODEC_ID_MPEG4);
        AVCodecContext enc = avcodec.avcodec_alloc_context3(codec);
        AVFrame frame = avutil.av_frame_alloc();
        AVPacket pkt = avcodec.av_packet_alloc();
        try {
            AVStream st = avformat.avformat_new_stream(oc, null);
            AVRational tb = avutil.av_make_q(1, fps);
            enc.width(width).height(height).pix_fmt(avutil.AV_PIX_FMT_YUV420P).time_base(tb)
                .framerate(avutil.av_make_q(fps, 1)).gop_size(12).max_b_frames(0);
            enc.flags(enc.flags() | avcodec.AV_CODEC_FLAG_QSCALE);
            enc.global_quality(avutil.FF_QP2LAMBDA * 3);
            if ((oc.oformat().flags() & avformat.AVFMT_GLOBALHEADER) != 0) {
                enc.flags(enc.flags() | avcodec.AV_CODEC_FLAG_GLOBAL_HEADER);
            }
            check(avcodec.avcodec_open2(enc, codec, (AVDictionary) null), "open mpeg4 encoder", path);
            check(avcodec.avcodec_parameters_from_context(st.codecpar(), enc), "stream parameters", path);
            st.time_base(tb);
            AVIOContext pb = new AVIOContext(null);
            check(avformat.avio_open(pb, path.toString(), avformat.AVIO_FLAG_WRITE), "open output", path);
            oc.pb(pb);
            check(avformat.avformat_write_header(oc, (AVDictionary) null), "write header", path);
            frame.format(avutil.AV_PIX_FMT_YUV420P).width(width).height(height);
            check(avutil.av_frame_get_buffer(frame, 0), "frame buffer", path);
            byte[] row = new byte[width];
            for (int i = 0; i < frames; i++) {
                check(avutil.av_frame_make_writable(frame), "frame writable", path);
                drawIndex(frame, row, i, width, height);
                frame.pts(i);
                check(avcodec.avcodec_send_frame(enc, frame), "encode", path);
                drain(oc, enc, st, pkt, path);
            }
            check(avcodec.avcodec_send_frame(enc, null), "flush encoder", path);
            drain(oc, enc, st, pkt, path);
            check(avformat.av_write_trailer(oc), "write trailer", path);
        } finally {
            if (oc.pb() != null && !oc.pb().isNull()) { // open only once avio_open ran: closing none crashes the JVM
                avformat.avio_closep(oc.pb());
            }
            avcodec.av_packet_free(pkt);
            avutil.av_frame_free(frame);
            avcodec.avcodec_free_context(enc);
            avformat.avformat_free_context(oc);
        }
    }

    /** Luma: the index bands (235 = 1, 16 = 0); chroma neutral, so the RGB output is gray. */
    private static void drawIndex(AVFrame frame, byte[] row, int i, int width, int height) {
        for (int x = 0; x < width; x++) {
            int bit = BANDS - 1 - x * BANDS / width;
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
    }

    private static void drain(AVFormatContext oc, AVCodecContext enc, AVStream st, AVPacket pkt, Path path)
        throws IOException {
        while (avcodec.avcodec_receive_packet(enc, pkt) >= 0) {
            pkt.duration(1); // one frame in the encoder's 1/fps time base
            avcodec.av_packet_rescale_ts(pkt, enc.time_base(), st.time_base());
            pkt.stream_index(st.index());
            check(avformat.av_interleaved_write_frame(oc, pkt), "write packet", path);
        }
    }

    private static void check(int ret, String what, Path path) throws IOException {
        if (ret < 0) {
            throw new IOException("cannot write sample clip " + path + ": " + what + " failed (FFmpeg error " + ret
                + ")");
        }
    }
}
