package org.spdl4j.media;

import org.bytedeco.ffmpeg.avutil.AVChannelLayout;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.ffmpeg.global.swresample;
import org.bytedeco.ffmpeg.swresample.SwrContext;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

import java.nio.file.Path;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * Decodes the best audio stream of a file (WAV, FLAC, MP3, Vorbis, Opus, AAC, ... as the FFmpeg build provides) and
 * resamples it (swresample) to float32 at the requested rate and channel count, written straight to a destination.
 *
 * <p><b>Threading:</b> thread safe: each call opens, uses and frees its own demuxer, decoder and resampler (an audio
 * file needs its own contexts anyway), so any number of threads may call at once.
 *
 * <p><b>Memory:</b> all native objects of a call are freed before it returns, on every path. Limits: the stream's
 * declared duration against {@link MediaLimits#maxDurationSeconds()}, checked before the decoder is opened.
 */
public final class AudioDecoder {
    private AudioDecoder() {
    }

    /**
     * Decodes and resamples a file into the destination ({@code spec.bytes()} bytes).
     *
     * @param path the audio (or video with audio) file
     * @param spec output rate, channels, layout and capacity
     * @param limits checked against the header
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available; at least {@code spec.bytes()}
     * @return samples written per channel (at most {@code spec.maxSamples()}); the rest of the destination is untouched
     */
    public static int decodeFile(final Path path, final AudioSpec spec, final MediaLimits limits,
                                 final long dstAddress, final long dstCapacity) {
        final String label = path.toString();
        if (dstCapacity < spec.bytes()) {
            throw new MediaException(label, "destination holds " + dstCapacity + " bytes; the spec needs "
                    + spec.bytes());
        }
        final StreamDecoder decoder = StreamDecoder.open(path, avutil.AVMEDIA_TYPE_AUDIO, limits);
        final AVFrame frame = avutil.av_frame_alloc();
        NativeResourceCounter.allocated(Kind.FRAME);
        final LongPointer planes = new LongPointer(spec.interleaved() ? 1 : spec.channels());
        final PointerPointer<Pointer> out = new PointerPointer<>(planes);
        NativeResourceCounter.allocated(Kind.BUFFER);
        SwrContext swr = null;
        try {
            int written = 0;
            while (written < spec.maxSamples() && decoder.receive(frame)) {
                if (swr == null) {
                    swr = createResampler(frame, spec, label);
                }
                pointAt(planes, spec, dstAddress, written);
                final int n = swresample.swr_convert(swr, out, spec.maxSamples() - written, frame.extended_data(),
                        frame.nb_samples());
                written += FFmpeg.check(n, label, "swr_convert");
            }
            if (swr != null && written < spec.maxSamples()) {
                pointAt(planes, spec, dstAddress, written);
                // Drain the resampler's delay line.
                written += FFmpeg.check(swresample.swr_convert(swr, out, spec.maxSamples() - written,
                        (PointerPointer<?>) null, 0), label, "swr_convert(flush)");
            }
            if (swr == null) {
                throw new MediaException(label, "no audio decoded");
            }
            return written;
        } finally {
            if (swr != null) {
                swresample.swr_free(swr);
                NativeResourceCounter.freed(Kind.RESAMPLER);
            }
            planes.close();
            NativeResourceCounter.freed(Kind.BUFFER);
            avutil.av_frame_free(frame);
            NativeResourceCounter.freed(Kind.FRAME);
            decoder.free();
        }
    }

    /** Output pointers for the next {@code written} samples: one plane per channel, or one interleaved plane. */
    private static void pointAt(final LongPointer planes, final AudioSpec spec, final long dst, final int written) {
        if (spec.interleaved()) {
            planes.put(0, dst + (long) written * spec.channels() * Float.BYTES);
        } else {
            for (int c = 0; c < spec.channels(); c++) {
                planes.put(c, dst + ((long) c * spec.maxSamples() + written) * Float.BYTES);
            }
        }
    }

    private static SwrContext createResampler(final AVFrame frame, final AudioSpec spec, final String label) {
        final AVChannelLayout outLayout = new AVChannelLayout();
        final AVChannelLayout inLayout = new AVChannelLayout();
        try {
            avutil.av_channel_layout_default(outLayout, spec.channels());
            if (frame.ch_layout().order() == avutil.AV_CHANNEL_ORDER_UNSPEC) {
                avutil.av_channel_layout_default(inLayout, frame.ch_layout().nb_channels());
            } else {
                FFmpeg.check(avutil.av_channel_layout_copy(inLayout, frame.ch_layout()), label, "layout copy");
            }
            final SwrContext swr = new SwrContext(null);
            FFmpeg.check(swresample.swr_alloc_set_opts2(swr, outLayout,
                    spec.interleaved() ? avutil.AV_SAMPLE_FMT_FLT : avutil.AV_SAMPLE_FMT_FLTP, spec.sampleRate(),
                    inLayout, frame.format(), frame.sample_rate(), 0, null), label, "swr_alloc_set_opts2");
            NativeResourceCounter.allocated(Kind.RESAMPLER);
            final int ret = swresample.swr_init(swr);
            if (ret < 0) {
                swresample.swr_free(swr);
                NativeResourceCounter.freed(Kind.RESAMPLER);
                throw FFmpeg.failure(ret, label, "swr_init");
            }
            return swr;
        } finally {
            avutil.av_channel_layout_uninit(outLayout);
            avutil.av_channel_layout_uninit(inLayout);
            outLayout.close();
            inLayout.close();
        }
    }
}
