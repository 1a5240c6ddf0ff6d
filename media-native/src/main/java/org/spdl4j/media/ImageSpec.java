package org.spdl4j.media;

import java.util.Objects;

/**
 * Immutable description of the pixels a decode must produce: size, layout, resize mode, filter, pad value, whether
 * reduced-scale JPEG decoding may be used, and for the training transform the random crop's ranges. The output is {@code height} rows of {@code width * channels}
 * bytes, tightly packed ({@link #bytes()} in all).
 *
 * <p>Thread safe (immutable). Build one per pipeline with the static factories and reuse it for every item.
 *
 * @param width output width in pixels
 * @param height output height in pixels
 * @param format output pixel layout
 * @param mode how the source maps onto the output
 * @param resizeShortSide for {@link ResizeMode#SHORT_SIDE_CENTER_CROP}: the short side after resizing (e.g. 256);
 *                        0 for other modes
 * @param interpolation resampling filter
 * @param padValue for {@link ResizeMode#PAD}: the byte written to every channel of the border (0..255)
 * @param lowresAllowed whether large JPEGs may be decoded at 1/2, 1/4 or 1/8 scale when the output needs no more
 * @param randomCrop for {@link ResizeMode#RANDOM_RESIZED_CROP}: the crop's ranges and flip probability; {@code null}
 *                   for every other mode
 * @param scalerQuality the scaler's rounding and chroma handling ({@link MediaConfiguration#DEFAULT_SCALER_QUALITY}
 *                      unless set with {@link #withScalerQuality})
 */
public record ImageSpec(int width, int height, PixelFormat format, ResizeMode mode, int resizeShortSide,
                        Interpolation interpolation, int padValue, boolean lowresAllowed,
                        RandomResizedCrop randomCrop, ScalerQuality scalerQuality) {

    /**
     * Validates the description.
     *
     * @param width output width
     * @param height output height
     * @param format pixel layout
     * @param mode resize mode
     * @param resizeShortSide short side after resizing, for the crop mode
     * @param interpolation filter
     * @param padValue border byte for the pad mode
     * @param lowresAllowed reduced-scale JPEG decoding allowed
     * @param randomCrop the random crop, exactly when the mode is the random crop
     * @param scalerQuality the scaler's rounding and chroma handling
     */
    public ImageSpec {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(scalerQuality, "scalerQuality");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(interpolation, "interpolation");
        if (width <= 0 || height <= 0 || (long) width * height > Integer.MAX_VALUE / 4) {
            throw new IllegalArgumentException("bad output size " + width + "x" + height);
        }
        if (mode == ResizeMode.SHORT_SIDE_CENTER_CROP && resizeShortSide < Math.max(width, height)) {
            throw new IllegalArgumentException("resizeShortSide " + resizeShortSide + " must be >= the crop "
                    + width + "x" + height);
        }
        if ((mode == ResizeMode.RANDOM_RESIZED_CROP) != (randomCrop != null)) {
            throw new IllegalArgumentException("randomCrop must be given with mode RANDOM_RESIZED_CROP and only then"
                    + " (mode " + mode + ", randomCrop " + randomCrop + ")");
        }
        if (padValue < 0 || padValue > 255) {
            throw new IllegalArgumentException("padValue must be 0..255: " + padValue);
        }
    }

    /**
     * A description with the default scaler quality ({@link MediaConfiguration#DEFAULT_SCALER_QUALITY}).
     *
     * @param width output width
     * @param height output height
     * @param format pixel layout
     * @param mode resize mode
     * @param resizeShortSide short side after resizing, for the crop mode
     * @param interpolation filter
     * @param padValue border byte for the pad mode
     * @param lowresAllowed reduced-scale JPEG decoding allowed
     * @param randomCrop the random crop, exactly when the mode is the random crop
     */
    public ImageSpec(final int width, final int height, final PixelFormat format, final ResizeMode mode,
                     final int resizeShortSide, final Interpolation interpolation, final int padValue,
                     final boolean lowresAllowed, final RandomResizedCrop randomCrop) {
        this(width, height, format, mode, resizeShortSide, interpolation, padValue, lowresAllowed, randomCrop,
                MediaConfiguration.DEFAULT_SCALER_QUALITY);
    }

    /**
     * Stretch the whole source to {@code width x height}.
     *
     * @param width output width
     * @param height output height
     * @param format pixel layout
     * @return the spec (bilinear, lowres allowed)
     */
    public static ImageSpec exact(final int width, final int height, final PixelFormat format) {
        return new ImageSpec(width, height, format, ResizeMode.EXACT, 0, Interpolation.BILINEAR, 0,
                MediaConfiguration.DEFAULT_LOWRES, null);
    }

    /**
     * torchvision's {@code Resize(shortSide)} + {@code CenterCrop(size)}: e.g. {@code centerCrop(256, 224, RGB24)}.
     *
     * @param shortSide the short side after resizing
     * @param size the square crop's side
     * @param format pixel layout
     * @return the spec (bilinear, lowres allowed)
     */
    public static ImageSpec centerCrop(final int shortSide, final int size, final PixelFormat format) {
        return new ImageSpec(size, size, format, ResizeMode.SHORT_SIDE_CENTER_CROP, shortSide,
                Interpolation.BILINEAR, 0, MediaConfiguration.DEFAULT_LOWRES, null);
    }

    /**
     * Fit inside {@code width x height} keeping the aspect ratio; the border is filled with 0.
     *
     * @param width output width
     * @param height output height
     * @param format pixel layout
     * @return the spec (bilinear, lowres allowed, pad value 0)
     */
    public static ImageSpec pad(final int width, final int height, final PixelFormat format) {
        return new ImageSpec(width, height, format, ResizeMode.PAD, 0, Interpolation.BILINEAR, 0,
                MediaConfiguration.DEFAULT_LOWRES, null);
    }

    /**
     * The training transform: torchvision's {@code RandomResizedCrop(size)} + {@code RandomHorizontalFlip}, e.g.
     * {@code randomResizedCrop(224, RandomResizedCrop.imagenet(), RGB24)}. Each image's crop and flip come from the
     * seed passed with it ({@link SingleThreadImageDecoder#decode(long, long, String, ImageSpec, long, long, long)}).
     *
     * @param size the square output's side
     * @param crop the crop's ranges and flip probability
     * @param format pixel layout
     * @return the spec (bilinear, as torchvision's default; lowres allowed, chosen per crop)
     */
    public static ImageSpec randomResizedCrop(final int size, final RandomResizedCrop crop,
                                              final PixelFormat format) {
        return new ImageSpec(size, size, format, ResizeMode.RANDOM_RESIZED_CROP, 0, Interpolation.BILINEAR, 0,
                MediaConfiguration.DEFAULT_LOWRES, Objects.requireNonNull(crop, "crop"));
    }

    /**
     * Same spec with another filter.
     *
     * @param filter the resampling filter
     * @return a new spec
     */
    public ImageSpec withInterpolation(final Interpolation filter) {
        return new ImageSpec(width, height, format, mode, resizeShortSide, filter, padValue, lowresAllowed,
                randomCrop, scalerQuality);
    }

    /**
     * Same spec with another border value (pad mode).
     *
     * @param value 0..255
     * @return a new spec
     */
    public ImageSpec withPadValue(final int value) {
        return new ImageSpec(width, height, format, mode, resizeShortSide, interpolation, value, lowresAllowed,
                randomCrop, scalerQuality);
    }

    /**
     * Same spec with reduced-scale JPEG decoding allowed or not.
     *
     * @param allowed whether lowres decoding may be used
     * @return a new spec
     */
    public ImageSpec withLowres(final boolean allowed) {
        return new ImageSpec(width, height, format, mode, resizeShortSide, interpolation, padValue, allowed,
                randomCrop, scalerQuality);
    }

    /**
     * Same spec with another scaler quality.
     *
     * @param quality {@link ScalerQuality#FAST} or {@link ScalerQuality#ACCURATE}
     * @return a new spec
     */
    public ImageSpec withScalerQuality(final ScalerQuality quality) {
        return new ImageSpec(width, height, format, mode, resizeShortSide, interpolation, padValue, lowresAllowed,
                randomCrop, quality);
    }

    /** {@return bytes per output row: width x channels} */
    public int rowBytes() {
        return width * format.channels();
    }

    /** {@return bytes of one output image: height x width x channels} */
    public int bytes() {
        return height * rowBytes();
    }
}
