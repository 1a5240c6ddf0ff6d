package org.spdl4j.media;

/**
 * How a source frame maps onto the {@code width x height} output.
 *
 * <p>Thread safe (enum).
 */
public enum ResizeMode {
    /** Stretch the whole source to exactly width x height (aspect ratio not kept). */
    EXACT,
    /**
     * Scale so the short side equals {@link ImageSpec#resizeShortSide()}, then take the centered width x height crop:
     * torchvision's {@code Resize(s)} + {@code CenterCrop(w, h)}. Done in one pass by scaling only the source region
     * that the crop keeps.
     */
    SHORT_SIDE_CENTER_CROP,
    /** Scale to fit inside width x height keeping the aspect ratio, centered, the border filled with the pad value. */
    PAD,
    /**
     * A random source rectangle per image, resized to width x height, optionally mirrored: torchvision's
     * {@code RandomResizedCrop} + {@code RandomHorizontalFlip}, described by {@link ImageSpec#randomCrop()} and
     * driven by a seed given with each image. Still one scaler pass from the crop straight into the destination.
     */
    RANDOM_RESIZED_CROP
}
