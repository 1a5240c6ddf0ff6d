package org.spdl4j.media;

/**
 * Immutable description of decoded audio: float32 samples at a rate and channel count, planar {@code [C, N]} (each
 * channel's {@code maxSamples} floats contiguous) or interleaved {@code [N, C]}.
 *
 * @param sampleRate output rate in Hz
 * @param channels output channel count (1 = mono downmix, 2 = stereo, ...); a downmix is not normalised, so its
 *                 samples can exceed +-1.0 ({@link AudioDecoder})
 * @param interleaved false for planar [C, N], true for interleaved [N, C]
 * @param maxSamples samples per channel the destination holds (N); longer audio is cut there
 */
public record AudioSpec(int sampleRate, int channels, boolean interleaved, int maxSamples) {
    /**
     * Validates the description.
     *
     * @param sampleRate output rate
     * @param channels channel count
     * @param interleaved layout
     * @param maxSamples capacity per channel
     */
    public AudioSpec {
        if (sampleRate <= 0 || channels <= 0 || channels > 64 || maxSamples <= 0
                || (long) channels * maxSamples * Float.BYTES > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("bad audio spec " + sampleRate + " Hz, " + channels + " ch, "
                    + maxSamples + " samples");
        }
    }

    /** {@return destination bytes needed: channels x maxSamples x 4} */
    public long bytes() {
        return (long) channels * maxSamples * Float.BYTES;
    }
}
