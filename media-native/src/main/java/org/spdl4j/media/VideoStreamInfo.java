package org.spdl4j.media;

/**
 * What a video stream's header says: size, rate, length, codec.
 *
 * <p>Immutable.
 *
 * @param width frame width in pixels
 * @param height frame height in pixels
 * @param fps average frame rate (frames per second), 0 when unknown
 * @param durationSeconds the stream's length, from its first frame to the end of its last, whatever time it starts at
 *                        (a container that stores the end timestamp instead, Matroska written by FFmpeg or NUT, is
 *                        read accordingly); 0 when unknown
 * @param frameCount frames declared by the container, or estimated from duration x fps; 0 when unknown
 * @param codec FFmpeg's codec name, e.g. "h264", "mpeg4", "vp9"
 * @param pixelFormat the decoder's pixel format name, e.g. "yuv420p"
 */
public record VideoStreamInfo(int width, int height, double fps, double durationSeconds, long frameCount,
                              String codec, String pixelFormat) {
}
