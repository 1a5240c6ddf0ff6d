package org.spdl4j.djl;

import java.util.Arrays;
import java.util.Objects;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/**
 * A decode step that delivers what a vision model takes: normalized float32 {@code [C, H, W]} samples, from a decoder
 * of uint8 {@code [H, W, C]} pixels (media-native's {@code ImageSlotDecoder}). The conversion runs in the loader's
 * decode workers, beside the decode, so the training thread gets batches ready for the first layer and the cost is
 * spread over the decode threads instead of serialized on the training loop.
 *
 * <pre>
 *  float slot of one sample (4 * C*H*W bytes):
 *  | plane 0 (H*W floats) | plane 1 | ... | plane C-1 ...............|
 *                                         | uint8 H*W*C: the inner    |
 *                                         | decoder writes here first |  (the slot's last quarter)
 * </pre>
 * The inner decoder writes its pixels into the last quarter of the sample's own slot, and
 * {@link PixelNormalization#hwcToChw} converts them forward into the planes (safe for up to four channels; see
 * there): no scratch buffer, no copy of the pixels.
 *
 * <p><b>Threading:</b> as the inner decoder ({@link #decode} from many workers). <b>Ownership:</b> owns the inner
 * decoder and closes it.
 */
public final class NormalizingSlotDecoder implements SlotDecoder {
    private final SlotDecoder pixels;
    private final PixelNormalization normalization;
    private final int height;
    private final int width;
    private final int channels;
    private final int pixelBytes;

    private NormalizingSlotDecoder(Builder b) {
        this.pixels = b.pixels;
        this.normalization = b.normalization;
        long[] shape = pixels.sampleShape();
        if (pixels.dtype() != DType.U8 || shape.length != 3) {
            throw new IllegalArgumentException("the inner decoder must produce uint8 [H, W, C], it produces "
                + pixels.dtype() + Arrays.toString(shape));
        }
        if (shape[2] != normalization.channels()) {
            throw new IllegalArgumentException("the inner decoder gives " + shape[2] + " channels, the normalization "
                + "has " + normalization.channels() + " (" + normalization + ")");
        }
        this.height = Math.toIntExact(shape[0]);
        this.width = Math.toIntExact(shape[1]);
        this.channels = Math.toIntExact(shape[2]);
        this.pixelBytes = Math.multiplyExact(Math.multiplyExact(height, width), channels);
        Math.multiplyExact(pixelBytes, Float.BYTES); // the float sample must fit an int slot
    }

    /**
     * A builder over a uint8 {@code [H, W, C]} decoder, whose ownership it takes at {@link Builder#build()}.
     *
     * @param pixelDecoder the decoder of pixels
     * @return the builder (normalization default: {@link PixelNormalization#imagenet()})
     */
    public static Builder builder(SlotDecoder pixelDecoder) {
        return new Builder(pixelDecoder);
    }

    /** {@return float32} */
    @Override
    public DType dtype() {
        return DType.F32;
    }

    /** {@return {@code [C, H, W]}} */
    @Override
    public long[] sampleShape() {
        return new long[] {channels, height, width};
    }

    /** {@return the normalization applied} */
    public PixelNormalization normalization() {
        return normalization;
    }

    @Override
    public void decode(EncodedSample sample, long destination, int length) {
        if (length != Float.BYTES * pixelBytes) {
            throw new IllegalArgumentException("slot of " + length + " B for a " + Arrays.toString(sampleShape())
                + " float sample of " + (Float.BYTES * pixelBytes) + " B");
        }
        long pixelsAt = destination + 3L * pixelBytes; // the last quarter of the slot
        pixels.decode(sample, pixelsAt, pixelBytes);
        normalization.hwcToChw(pixelsAt, destination, height * width);
    }

    @Override
    public boolean readsFiles() {
        return pixels.readsFiles();
    }

    @Override
    public void close() {
        pixels.close();
    }

    /** Options of a {@link NormalizingSlotDecoder}. Not thread-safe. */
    public static final class Builder {
        private final SlotDecoder pixels;
        private PixelNormalization normalization = PixelNormalization.imagenet();

        private Builder(SlotDecoder pixels) {
            this.pixels = Objects.requireNonNull(pixels, "pixelDecoder");
        }

        /**
         * Sets the per-channel statistics (default ImageNet's).
         *
         * @param n the normalization, as many channels as the inner decoder's pixels
         * @return this builder
         */
        public Builder normalization(PixelNormalization n) {
            this.normalization = Objects.requireNonNull(n, "normalization");
            return this;
        }

        /**
         * {@return the decoder, owning the inner one}
         *
         * @throws IllegalArgumentException when the inner decoder does not produce uint8 {@code [H, W, C]} of the
         *                                  normalization's channels (the inner decoder is closed then)
         */
        public NormalizingSlotDecoder build() {
            try {
                return new NormalizingSlotDecoder(this);
            } catch (RuntimeException e) {
                pixels.close();
                throw e;
            }
        }
    }
}
