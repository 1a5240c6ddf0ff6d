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
 * Decodes the best audio stream of a file, or of a file's bytes in native memory (WAV, FLAC, MP3, Vorbis, Opus, AAC,
 * ... as the FFmpeg build provides) and resamples it (swresample) to float32 at the requested rate and channel count, written straight to a destination.
 *
 * <p><b>Threading:</b> thread safe: each call opens, uses and frees its own demuxer, decoder and resampler (an audio
 * file needs its own contexts anyway), so any number of threads may call at once.
 *
 * <p>A stream whose sample format, rate or channel layout changes mid-way (concatenated MP3s, AAC switching between
 * 5.1 and stereo) is followed: the resampler is drained and rebuilt for the new parameters, so the output stays at
 * the spec's rate and channels throughout.
 *
 * <p><b>Range:</b> samples are not clipped or normalised. Fewer output channels than input ones are mixed down with
 * swresample's default matrix (centre and surrounds at -3 dB added to the fronts, LFE left out), which FFmpeg does
 * not normalise for float output: loud in-phase content goes past +-1.0, up to about 1.41 x full scale from stereo
 * to mono, 2.41 x from 5.1 to stereo and 3.41 x from 5.1 to mono. Clip or scale the destination where a consumer
 * needs +-1.0. Upmixing and a plain rate change stay within the input's range (but for the resampling filter's
 * slight overshoot near full scale).
 *
 * <p>A packet FFmpeg refuses as invalid data (a damaged frame, a WAV cut mid-sample) costs its own samples only: it is
 * skipped, and the file is refused only when nothing decodes or more than half of its packets are invalid.
 *
 * <p><b>Memory:</b> all native objects of a call are freed before it returns, on every path. Limits: the stream's
 * declared duration against {@link MediaLimits#maxDurationSeconds()}, checked before the decoder is opened (a stream
 * that declares none: on the samples as they decode).
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
     * @return samples written per channel (at most {@code spec.maxSamples()}); the rest of the destination is
     *         untouched. Values are not clipped: a downmix can exceed +-1.0 (see the class comment)
     */
    public static int decodeFile(final Path path, final AudioSpec spec, final MediaLimits limits,
                                 final long dstAddress, final long dstCapacity) {
        return decodeFile(path, path.toString(), spec, limits, dstAddress, dstCapacity);
    }

    /**
     * Decodes and resamples a file as {@link #decodeFile(Path, AudioSpec, MediaLimits, long, long)} does, naming it
     * {@code label} in errors (e.g. a loader's sample key).
     *
     * @param path the audio (or video with audio) file
     * @param label names the input in errors
     * @param spec output rate, channels, layout and capacity
     * @param limits checked against the header
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available; at least {@code spec.bytes()}
     * @return samples written per channel
     */
    static int decodeFile(final Path path, final String label, final AudioSpec spec, final MediaLimits limits,
                          final long dstAddress, final long dstCapacity) {
        checkCapacity(label, spec, dstCapacity);
        return resample(StreamDecoder.open(path, label, avutil.AVMEDIA_TYPE_AUDIO, limits), spec, dstAddress);
    }

    /**
     * Decodes and resamples an audio file's bytes held in native memory (a tar member, a fetched URL), read in place
     * (no copy, no temporary file), into the destination ({@code spec.bytes()} bytes).
     *
     * @param srcAddress first encoded byte; the bytes must stay valid for the call
     * @param srcLength number of encoded bytes, at least 1
     * @param label names the input in errors (a key, a URL)
     * @param spec output rate, channels, layout and capacity
     * @param limits checked against the header
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available; at least {@code spec.bytes()}
     * @return samples written per channel (at most {@code spec.maxSamples()}); the rest of the destination is
     *         untouched. Values are not clipped: a downmix can exceed +-1.0 (see the class comment)
     * @throws MediaException when the bytes are empty, not audio FFmpeg can read, or over the limits
     */
    public static int decode(final long srcAddress, final long srcLength, final String label, final AudioSpec spec,
                             final MediaLimits limits, final long dstAddress, final long dstCapacity) {
        checkCapacity(label, spec, dstCapacity);
        return resample(StreamDecoder.open(srcAddress, srcLength, label, avutil.AVMEDIA_TYPE_AUDIO, limits), spec,
                dstAddress);
    }

    private static void checkCapacity(final String label, final AudioSpec spec, final long dstCapacity) {
        if (dstCapacity < spec.bytes()) {
            throw new MediaException(label, "destination holds " + dstCapacity + " bytes; the spec needs "
                    + spec.bytes());
        }
    }

    /**
     * Decodes every frame of an opened stream and resamples it into the destination; frees the decoder on every
     * path.
     *
     * @return samples written per channel
     */
    private static int resample(final StreamDecoder decoder, final AudioSpec spec, final long dstAddress) {
        final String label = decoder.label;
        final int planeCount = spec.interleaved() ? 1 : spec.channels();
        AVFrame frame = null;
        LongPointer planes = null;
        AVChannelLayout swrIn = null; // the input layout swr was built for
        SwrContext swr = null;
        int swrFormat = -1;
        int swrRate = -1;
        try {
            // Allocated inside the try: a failed allocation frees what came before, the opened file included.
            frame = NativeAllocations.allocate(avutil::av_frame_alloc, "av_frame_alloc", label);
            NativeResourceCounter.allocated(Kind.FRAME);
            planes = NativeAllocations.allocate(() -> new LongPointer(planeCount), "output plane pointers", label);
            NativeResourceCounter.allocated(Kind.BUFFER);
            final PointerPointer<Pointer> out = new PointerPointer<>(planes); // a view of planes, not a copy
            swrIn = NativeAllocations.allocate(AVChannelLayout::new, "AVChannelLayout", label);
            int written = 0;
            while (written < spec.maxSamples() && decoder.receive(frame)) {
                if (swr != null && (frame.format() != swrFormat || frame.sample_rate() != swrRate
                        || avutil.av_channel_layout_compare(inputLayout(frame, swrIn), swrIn) != 0)) {
                    // The stream changed format, rate or channels mid-way (concatenated MP3s, AAC switching 5.1 and
                    // stereo, chained Ogg): swr reads one input plane per channel it was built for, so feeding it
                    // this frame would read planes that do not exist. Drain what it holds, then build a new one.
                    pointAt(planes, spec, dstAddress, written);
                    written += FFmpeg.check(swresample.swr_convert(swr, out, spec.maxSamples() - written,
                            (PointerPointer<?>) null, 0), label, "swr_convert(flush before a format change)");
                    swresample.swr_free(swr);
                    NativeResourceCounter.freed(Kind.RESAMPLER);
                    swr = null;
                    avutil.av_channel_layout_uninit(swrIn);
                    if (written >= spec.maxSamples()) {
                        break;
                    }
                }
                if (swr == null) {
                    swr = createResampler(frame, spec, label, swrIn);
                    swrFormat = frame.format();
                    swrRate = frame.sample_rate();
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
            if (swrFormat < 0) {
                final String skipped = decoder.invalidPacketsNote();
                throw new MediaException(label, "no audio decoded" + (skipped.isEmpty() ? "" : ": " + skipped));
            }
            return written;
        } finally {
            if (swr != null) {
                swresample.swr_free(swr);
                NativeResourceCounter.freed(Kind.RESAMPLER);
            }
            if (swrIn != null) {
                avutil.av_channel_layout_uninit(swrIn);
                swrIn.close();
            }
            if (planes != null) {
                planes.close();
                NativeResourceCounter.freed(Kind.BUFFER);
            }
            if (frame != null) {
                avutil.av_frame_free(frame);
                NativeResourceCounter.freed(Kind.FRAME);
            }
            decoder.free();
        }
    }

    /**
     * {@return the layout to compare with {@code built}, the one the resampler was built for: the frame's own, or,
     * when the decoder left its order unspecified, {@code built} itself if the channel counts match} An unspecified
     * layout is compared by channel count only (the resampler was built with the default layout for it), so a stream
     * that never names its layout is not mistaken for one that changes.
     */
    private static AVChannelLayout inputLayout(final AVFrame frame, final AVChannelLayout built) {
        if (frame.ch_layout().order() != avutil.AV_CHANNEL_ORDER_UNSPEC) {
            return frame.ch_layout();
        }
        return frame.ch_layout().nb_channels() == built.nb_channels() ? built : frame.ch_layout();
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

    /**
     * Builds a resampler from the frame's format, rate and layout to the spec's; leaves the input layout it used in
     * {@code inLayout} (uninitialised by the caller).
     */
    private static SwrContext createResampler(final AVFrame frame, final AudioSpec spec, final String label,
                                              final AVChannelLayout inLayout) {
        final AVChannelLayout outLayout = NativeAllocations.allocate(AVChannelLayout::new, "AVChannelLayout", label);
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
            outLayout.close();
        }
    }
}
