package org.spdl4j.examples.audio;

import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.examples.slots.SlotWriter;
import org.spdl4j.media.AudioDecoder;
import org.spdl4j.media.AudioSpec;
import org.spdl4j.media.MediaLimits;

/**
 * Decodes an audio file and resamples it (FFmpeg's swresample) to float32 planar {@code [C, N]} straight into its
 * batch slot; audio shorter than {@code N} samples is padded with silence, longer audio is cut at {@code N}. Samples
 * are not clipped: a downmix to fewer channels can exceed +-1.0 ({@link AudioDecoder}).
 *
 * <p><b>Threading:</b> any number of threads ({@link AudioDecoder} opens its own contexts per call). <b>Allocation:</b>
 * none per file beyond the decoder's own native contexts: the padding view is one preallocated
 * {@link UnsafeBuffer} per thread, re-wrapped.
 */
public final class AudioClipWriter implements SlotWriter<Path> {
    private final AudioSpec spec;
    private final MediaLimits limits;
    private final ThreadLocal<UnsafeBuffer> views = ThreadLocal.withInitial(UnsafeBuffer::new);

    /**
     * Creates the writer.
     *
     * @param spec   output rate, channels and samples per channel; must be planar
     * @param limits checked against each file's header
     */
    public AudioClipWriter(AudioSpec spec, MediaLimits limits) {
        if (spec.interleaved()) {
            throw new IllegalArgumentException("the audio example lays out [C, N]: use a planar spec");
        }
        this.spec = spec;
        this.limits = limits;
    }

    /** {@return bytes of one sample: C x N x 4} */
    public int sampleBytes() {
        return (int) spec.bytes();
    }

    @Override
    public void write(Path file, long address, int length) {
        int written = AudioDecoder.decodeFile(file, spec, limits, address, length);
        int n = spec.maxSamples();
        if (written < n) {
            UnsafeBuffer view = views.get();
            view.wrap(address, length);
            for (int c = 0; c < spec.channels(); c++) { // silence after the end of each channel's row
                view.setMemory((c * n + written) * Float.BYTES, (n - written) * Float.BYTES, (byte) 0);
            }
        }
    }
}
