package org.spdl4j.media;

import java.nio.file.Path;
import java.util.Objects;
import org.agrona.UnsafeApi;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/**
 * A loader's audio decode step: decodes a sample's audio and resamples it (swresample) to float32 planar
 * {@code [C, N]} at the spec's rate straight into its batch slot; audio shorter than {@code N} samples per channel is
 * padded with silence (0.0f), longer audio is cut at {@code N}. Samples are not clipped: a downmix to fewer channels
 * can exceed +-1.0 ({@link AudioDecoder}).
 *
 * <p><b>Input:</b> {@link #readsFiles()} is true: a local file is opened by its {@link EncodedSample#path()} (when
 * {@link EncodedSample#length()} is 0); bytes already in memory (a tar member, a fetched URL) are read in place.
 *
 * <p><b>Threading:</b> any number of threads at once: each call opens its own demuxer, decoder and resampler and frees
 * them before it returns, on every path, so {@link #close()} has nothing to free. <b>Allocation:</b> the native
 * contexts of each call, none in Java beyond FFmpeg's JavaCPP wrappers. <b>Ownership:</b> the sample's bytes stay the
 * caller's, read during the call only. <b>Failures:</b> {@link MediaException} naming {@link EncodedSample#key()} for
 * input that is corrupt, has no audio, is over the {@link MediaLimits}, or is neither in memory nor in a file.
 */
public final class AudioClipDecoder implements SlotDecoder {
    private final AudioSpec spec;
    private final MediaLimits limits;

    private AudioClipDecoder(final AudioSpec spec, final MediaLimits limits) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.limits = Objects.requireNonNull(limits, "limits");
        if (spec.interleaved()) {
            throw new IllegalArgumentException("an audio clip is laid out [C, N]: use a planar spec (interleaved false)");
        }
        FFmpeg.init();
    }

    /**
     * Clips of {@code spec.maxSamples()} samples per channel at {@code spec.sampleRate()}, under
     * {@link MediaLimits#DEFAULT}: e.g. {@code of(new AudioSpec(16_000, 1, false, 16_000))} for one second of mono
     * at 16 kHz, {@code [1, 16000]}.
     *
     * @param spec output rate, channels and samples per channel; planar
     * @return the decoder
     * @throws IllegalArgumentException when the spec is interleaved
     */
    public static AudioClipDecoder of(final AudioSpec spec) {
        return of(spec, MediaLimits.DEFAULT);
    }

    /**
     * Clips as {@link #of(AudioSpec)} gives, under given limits.
     *
     * @param spec output rate, channels and samples per channel; planar
     * @param limits checked against each input's header (duration)
     * @return the decoder
     * @throws IllegalArgumentException when the spec is interleaved
     */
    public static AudioClipDecoder of(final AudioSpec spec, final MediaLimits limits) {
        return new AudioClipDecoder(spec, limits);
    }

    /** {@return the output rate, channels and samples per channel} */
    public AudioSpec spec() {
        return spec;
    }

    @Override
    public DType dtype() {
        return DType.F32;
    }

    /** {@return {@code [channels, maxSamples]}, a fresh array} */
    @Override
    public long[] sampleShape() {
        return new long[] {spec.channels(), spec.maxSamples()};
    }

    /** {@return true: a local file is opened by its path, not copied into memory first} */
    @Override
    public boolean readsFiles() {
        return true;
    }

    @Override
    public void decode(final EncodedSample sample, final long destination, final int length) {
        final String key = sample.key();
        final int bytes = sample.length();
        final int written;
        if (bytes > 0) {
            written = AudioDecoder.decode(sample.address(), bytes, key, spec, limits, destination, length);
        } else {
            final Path path = sample.path();
            if (path == null) {
                throw new MediaException(key, "empty input: no bytes and no local file");
            }
            written = AudioDecoder.decodeFile(path, key, spec, limits, destination, length);
        }
        final int n = spec.maxSamples();
        if (written < n) {
            for (int c = 0; c < spec.channels(); c++) { // silence after the end of each channel's row
                UnsafeApi.setMemory(destination + ((long) c * n + written) * Float.BYTES,
                        (long) (n - written) * Float.BYTES, (byte) 0);
            }
        }
    }
}
