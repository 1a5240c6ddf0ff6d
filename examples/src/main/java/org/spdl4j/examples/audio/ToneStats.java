package org.spdl4j.examples.audio;

import org.agrona.DirectBuffer;

/**
 * What the audio example prints about one decoded channel: how long the sound is (up to the padding), how loud
 * (RMS), and its pitch (rising zero crossings per second: exact enough for the pure tones it generates). Reads
 * float32 samples in place; allocates nothing.
 *
 * @param samples samples before the trailing silence
 * @param rms     root mean square over those samples
 * @param pitchHz rising zero crossings per second over those samples
 */
public record ToneStats(int samples, double rms, double pitchHz) {
    /**
     * Measures one channel.
     *
     * @param buffer     holds the samples
     * @param offset     byte offset of the channel's first sample
     * @param n          samples in the channel (including padding)
     * @param sampleRate samples per second
     * @return the measures
     */
    public static ToneStats of(DirectBuffer buffer, int offset, int n, int sampleRate) {
        int valid = n;
        while (valid > 0 && buffer.getFloat(offset + (valid - 1) * Float.BYTES) == 0f) {
            valid--;
        }
        double sum = 0;
        int rising = 0;
        float previous = 0f;
        for (int i = 0; i < valid; i++) {
            float v = buffer.getFloat(offset + i * Float.BYTES);
            sum += (double) v * v;
            if (i > 0 && previous < 0f && v >= 0f) {
                rising++;
            }
            previous = v;
        }
        return new ToneStats(valid, valid == 0 ? 0 : Math.sqrt(sum / valid),
            valid == 0 ? 0 : rising * (double) sampleRate / valid);
    }
}
