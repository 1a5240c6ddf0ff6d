package org.spdl4j.media;

import java.util.Objects;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/**
 * A loader's image decode step: FFmpeg decodes a sample's encoded bytes where they lie ({@link EncodedSample#address()},
 * no copy) and one swscale pass writes the final pixels (resized, cropped, in the spec's pixel format) straight into
 * the sample's batch slot, a {@code [height, width, channels]} uint8 tensor (NHWC in the batch).
 *
 * <ul>
 *   <li>{@link #evaluation(int, int)}: RGB, short side resized to {@code shortSide}, centre crop {@code crop}
 *       (torchvision's {@code Resize(256)} + {@code CenterCrop(224)}).</li>
 *   <li>{@link #training(int)}: RGB, {@code RandomResizedCrop(crop)} + horizontal flip with ImageNet's ranges
 *       ({@link RandomResizedCrop#imagenet()}), each sample's crop and flip drawn from {@link EncodedSample#seed()}:
 *       the same seed gives the same pixels.</li>
 *   <li>{@link #of(ImageSpec, MediaLimits)}: any {@link ImageSpec}.</li>
 * </ul>
 *
 * <p><b>Threading:</b> {@link #decode} may be called by any number of threads at once; each uses its own thread's
 * FFmpeg contexts ({@link PerThreadImageDecoders}; a virtual thread borrows an idle one for the call). <b>Blocking:</b>
 * a decode first reserves its image's decoded size from the {@link DecodeMemoryBudget} all decode threads share, and
 * waits (bounded, interruptible, no later than {@link EncodedSample#deadlineNanos()}) while it does not fit. <b>Ownership:</b>
 * owns its {@link PerThreadImageDecoders}, created (FFmpeg loaded and warmed up, a few hundred milliseconds the first
 * time in a JVM) by the factory and freed by {@link #close()}, once every decode has returned. The sample's bytes stay
 * the caller's; they are read during the call only. <b>Allocation:</b> no pixel or byte buffer per sample; the FFmpeg
 * calls leave a few hundred bytes of short-lived JavaCPP wrappers. <b>Failures:</b> a corrupt, truncated, empty or
 * oversized input throws {@link MediaException} naming {@link EncodedSample#key()}; a slot smaller than
 * {@link #sampleShape()} needs throws it too, before anything is decoded.
 */
public final class ImageSlotDecoder implements SlotDecoder {
    private final ImageSpec spec;
    private final PerThreadImageDecoders decoders;

    private ImageSlotDecoder(final ImageSpec spec, final MediaLimits limits, final DecodeMemoryBudget budget) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.decoders = new PerThreadImageDecoders(Objects.requireNonNull(limits, "limits"),
                Objects.requireNonNull(budget, "budget"));
    }

    /**
     * The evaluation transform: RGB, short side {@code shortSide}, centre crop {@code crop} x {@code crop}, under
     * {@link MediaLimits#DEFAULT}.
     *
     * @param shortSide the short side after resizing (e.g. 256), at least {@code crop}
     * @param crop the square output's side (e.g. 224)
     * @return the decoder, owned by the caller (a loader closes it)
     * @throws IllegalArgumentException when {@code crop} is below 1 or above {@code shortSide}
     */
    public static ImageSlotDecoder evaluation(final int shortSide, final int crop) {
        return of(ImageSpec.centerCrop(shortSide, crop, PixelFormat.RGB24), MediaLimits.DEFAULT);
    }

    /**
     * The training transform: RGB, {@code RandomResizedCrop(crop)} (area 8% to 100%, aspect ratio 3/4 to 4/3) and a
     * horizontal flip with probability 1/2, drawn per sample from {@link EncodedSample#seed()}, under
     * {@link MediaLimits#DEFAULT}. A loader that draws no seeds passes 0 to every sample: each then gets the crop seed
     * 0 gives its size.
     *
     * @param crop the square output's side (e.g. 224)
     * @return the decoder, owned by the caller (a loader closes it)
     */
    public static ImageSlotDecoder training(final int crop) {
        return of(ImageSpec.randomResizedCrop(crop, RandomResizedCrop.imagenet(), PixelFormat.RGB24),
                MediaLimits.DEFAULT);
    }

    /**
     * A decoder for any output description, under {@link MediaLimits#DEFAULT}.
     *
     * @param spec size, pixel format, resize mode (a random one draws from {@link EncodedSample#seed()})
     * @return the decoder, owned by the caller (a loader closes it)
     */
    public static ImageSlotDecoder of(final ImageSpec spec) {
        return of(spec, MediaLimits.DEFAULT);
    }

    /**
     * A decoder for any output description under given limits.
     *
     * @param spec size, pixel format, resize mode (a random one draws from {@link EncodedSample#seed()})
     * @param limits checked against each input (bytes, declared pixels)
     * @return the decoder, owned by the caller (a loader closes it)
     */
    public static ImageSlotDecoder of(final ImageSpec spec, final MediaLimits limits) {
        return of(spec, limits, DecodeMemoryBudget.shared());
    }

    /**
     * A decoder for any output description under given limits, reserving each image's decoded size from a budget of
     * its own choosing before decoding it (the other factories use {@link DecodeMemoryBudget#shared()}).
     *
     * @param spec size, pixel format, resize mode (a random one draws from {@link EncodedSample#seed()})
     * @param limits checked against each input (bytes, declared pixels)
     * @param budget the decode memory budget its decode threads share, e.g. {@link DecodeMemoryBudget#ofBytes(long)}
     * @return the decoder, owned by the caller (a loader closes it)
     */
    public static ImageSlotDecoder of(final ImageSpec spec, final MediaLimits limits,
                                      final DecodeMemoryBudget budget) {
        return new ImageSlotDecoder(spec, limits, budget);
    }

    /** {@return the output description every sample is decoded to} */
    public ImageSpec spec() {
        return spec;
    }

    @Override
    public DType dtype() {
        return DType.U8;
    }

    /** {@return {@code [height, width, channels]}, a fresh array} */
    @Override
    public long[] sampleShape() {
        return new long[] {spec.height(), spec.width(), spec.format().channels()};
    }

    @Override
    public void decode(final EncodedSample sample, final long destination, final int length) {
        final long address = sample.address();
        final int bytes = sample.length();
        if (address == 0 && bytes > 0) {
            throw new IllegalArgumentException(sample.key() + ": " + bytes + " bytes at address 0");
        }
        decoders.decode(address, bytes, sample.key(), spec, sample.seed(), destination, length,
                sample.deadlineNanos());
    }

    /** Frees every thread's FFmpeg contexts; call once every {@link #decode} has returned. Idempotent. */
    @Override
    public void close() {
        decoders.close();
    }
}
