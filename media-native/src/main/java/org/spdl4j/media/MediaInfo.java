package org.spdl4j.media;

import java.util.List;

/**
 * What a media file contains, as {@link MediaProbe} reads it from the headers (the CLI's {@code probe}).
 *
 * <p>Immutable.
 *
 * @param input the path
 * @param container FFmpeg's demuxer name(s), e.g. "mov,mp4,m4a,3gp,3g2,mj2"
 * @param durationSeconds the file's length (its longest stream's, from the first frame to the end of the last, for a
 *                        container that stores an end timestamp instead: Matroska written by FFmpeg, NUT); 0 when
 *                        unknown
 * @param bitRate bits per second, 0 when unknown
 * @param streams every stream, in file order
 */
public record MediaInfo(String input, String container, double durationSeconds, long bitRate,
                        List<Stream> streams) {
    /**
     * One stream of the file.
     *
     * @param index stream index in the file
     * @param type "video", "audio", "subtitle", "data" or "attachment"
     * @param codec FFmpeg's codec name
     * @param width frame width (video), else 0
     * @param height frame height (video), else 0
     * @param fps frame rate (video), else 0
     * @param sampleRate samples per second (audio), else 0
     * @param channels channel count (audio), else 0
     * @param durationSeconds the stream's length, from its first frame to the end of its last, whatever time it
     *                        starts at; 0 when unknown
     * @param frames frames declared by the container, 0 when unknown
     */
    public record Stream(int index, String type, String codec, int width, int height, double fps, int sampleRate,
                         int channels, double durationSeconds, long frames) {
    }
}
