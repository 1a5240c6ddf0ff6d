/**
 * spdl4j media-native: FFmpeg (Bytedeco) decoding straight into off-heap destinations.
 *
 * <ul>
 *   <li>Images: {@link org.spdl4j.media.PerThreadImageDecoders} (thread safe) over
 *       {@link org.spdl4j.media.SingleThreadImageDecoder} (one per thread), described by an
 *       {@link org.spdl4j.media.ImageSpec}.</li>
 *   <li>Video: {@link org.spdl4j.media.SingleThreadVideoReader}; audio: {@link org.spdl4j.media.AudioDecoder};
 *       probe: {@link org.spdl4j.media.MediaProbe}.</li>
 *   <li>A loader's decode steps, {@link org.spdl4j.offheap.batch.SlotDecoder}s:
 *       {@link org.spdl4j.media.ImageSlotDecoder}, {@link org.spdl4j.media.VideoClipDecoder} (frames chosen by
 *       {@link org.spdl4j.media.UniformFrameSampling}), {@link org.spdl4j.media.AudioClipDecoder}.</li>
 *   <li>Limits: {@link org.spdl4j.media.MediaLimits}; configuration: {@link org.spdl4j.media.MediaConfiguration};
 *       errors: {@link org.spdl4j.media.MediaException}; leak accounting:
 *       {@link org.spdl4j.media.NativeResourceCounter}.</li>
 * </ul>
 */
package org.spdl4j.media;
