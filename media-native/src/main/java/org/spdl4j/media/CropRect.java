package org.spdl4j.media;

/**
 * The source rectangle a {@link RandomResizedCrop} chose for one image, in the pixels of the full-size source (its
 * header size, before any reduced-scale decode), and whether the output is mirrored. For tests and debugging: the
 * decoder computes the same choice into its own preallocated plan without creating one of these.
 *
 * <p>Thread safe (immutable).
 *
 * @param x left column of the crop, {@code 0 <= x <= sourceWidth - width}
 * @param y top row of the crop, {@code 0 <= y <= sourceHeight - height}
 * @param width crop width in source pixels, at least 1
 * @param height crop height in source pixels, at least 1
 * @param flip whether the output is mirrored left to right
 * @param fallback true when none of the {@link RandomResizedCrop#TRIES} random draws fit inside the image and the
 *                 crop is torchvision's fallback: the centred crop of the aspect ratio clamped to the allowed range
 */
public record CropRect(int x, int y, int width, int height, boolean flip, boolean fallback) {

    /**
     * {@return the crop's area as a fraction of a {@code sourceWidth x sourceHeight} image}
     *
     * @param sourceWidth the source width the crop was chosen for
     * @param sourceHeight the source height
     */
    public double areaFraction(final int sourceWidth, final int sourceHeight) {
        return (double) width * height / ((double) sourceWidth * sourceHeight);
    }
}
