package org.spdl4j.media;

import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.avutil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * One opened media input (a file, or bytes in native memory) and the decoder of its best stream of one type (video
 * or audio): demux, decode, seek. The shared core of {@link SingleThreadVideoReader} and {@link AudioDecoder}.
 *
 * <p>Not thread safe: owned by one reader on one thread. Owns the format context, codec context and packet (and, for
 * bytes in memory, the {@link MemoryAvioInput} they are read through) from {@link #open} until {@link #free()}; the
 * caller owns the frames it passes to {@link #receive}, and, for bytes in memory, the bytes, which must stay valid
 * until {@link #free()}.
 */
final class StreamDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(StreamDecoder.class);
    private static final int EAGAIN = -11; // AVERROR(EAGAIN)
    /**
     * Packets the decoder refused as invalid data that are tolerated however few were sent; beyond this, and once
     * more than half of those sent, the input is refused while decoding (at its end, more than half is enough).
     */
    private static final int INVALID_PACKETS_TOLERATED = 16;

    final String label;
    final AVFormatContext format;
    final AVStream stream;
    final int streamIndex;
    final AVCodecContext codec;
    private final AVPacket packet;
    /** The custom I/O the input is read through when it is bytes in memory; null for a file. */
    private final MemoryAvioInput memory;
    private boolean inputEnded;
    private boolean decoderDrained;
    /** Packets of the stream sent to the decoder, and those it refused or failed on as invalid data. */
    private long packetsSent;
    private long invalidPackets;
    /** The step and FFmpeg error of the last invalid packet, for the message. */
    private String lastInvalidStep;
    private int lastInvalidError;
    /** Whether an exception message already told of the invalid packets (then {@link #free()} does not log them). */
    private boolean invalidReported;
    /**
     * The duration limit, when the input declares no duration and it is checked on what decodes instead; 0 when the
     * header's duration was checked.
     */
    private final long undeclaredDurationLimit;
    private final double timeBase;
    /**
     * The frame rate as a fraction (video; 0/1 if unknown): frames without a timestamp last {@code rateDen / rateNum}
     * seconds each, counted in whole frames so that n frames come to n periods exactly (no running sum).
     */
    private final long rateNum;
    private final long rateDen;
    /**
     * How far over the limit decoding may seem to go and still be within it: a quarter frame (video), or a
     * microsecond, for the rounding of timestamps and periods (a stream of exactly the limit must pass).
     */
    private final double durationSlack;
    /** The first decoded frame's timestamp, for the duration limit. */
    private long firstTimestamp = avutil.AV_NOPTS_VALUE;
    /** Where the last frame with a timestamp ended, from the first's start, and what has decoded since without one. */
    private double stampedEndSeconds;
    private long unstampedFrames;
    private long unstampedSamples;
    /** The end of the last frame decoded, from the first frame's start: what the duration limit is checked on. */
    private double decodedSeconds;

    private StreamDecoder(final String label, final AVFormatContext format, final MemoryAvioInput memory,
                          final int streamIndex, final AVCodecContext codec, final AVPacket packet,
                          final long undeclaredDurationLimit) {
        this.label = label;
        this.format = format;
        this.memory = memory;
        this.streamIndex = streamIndex;
        this.stream = format.streams(streamIndex);
        this.codec = codec;
        this.packet = packet;
        this.undeclaredDurationLimit = undeclaredDurationLimit;
        this.timeBase = avutil.av_q2d(stream.time_base());
        long num = 0;
        long den = 1;
        if (undeclaredDurationLimit > 0 && codec.codec_type() == avutil.AVMEDIA_TYPE_VIDEO) {
            final AVRational rate = avformat.av_guess_frame_rate(format, stream, null);
            if (rate.num() > 0 && rate.den() > 0) {
                num = rate.num();
                den = rate.den();
            }
        }
        this.rateNum = num;
        this.rateDen = den;
        this.durationSlack = Math.max(1e-6, num > 0 ? 0.25 * den / num : 0);
    }

    /**
     * Opens a file and the decoder of its best stream of {@code mediaType}, checking the limits first.
     *
     * @param path the file
     * @param mediaType AVMEDIA_TYPE_VIDEO or AVMEDIA_TYPE_AUDIO
     * @param limits checked against the header before the decoder is opened; a duration the header does not give is
     *               checked on the frames as they decode
     * @return the opened decoder; the caller must {@link #free()} it
     */
    static StreamDecoder open(final Path path, final int mediaType, final MediaLimits limits) {
        return open(path, path.toString(), mediaType, limits);
    }

    /**
     * Opens a file as {@link #open(Path, int, MediaLimits)} does, naming it {@code label} in errors.
     *
     * @param path the file
     * @param label names the input in errors (e.g. a loader's sample key)
     * @param mediaType AVMEDIA_TYPE_VIDEO or AVMEDIA_TYPE_AUDIO
     * @param limits checked against the header, and a duration it does not give on the frames
     * @return the opened decoder; the caller must {@link #free()} it
     */
    static StreamDecoder open(final Path path, final String label, final int mediaType, final MediaLimits limits) {
        return openStream(label, FileInputs.open(path, label, limits.maxPixels()), null, mediaType, limits);
    }

    /**
     * Opens bytes in native memory (a container file's bytes: a tar member, a fetched URL) and the decoder of their
     * best stream of {@code mediaType}, checking the limits first. FFmpeg reads them in place through a custom I/O
     * context ({@link MemoryAvioInput}) that seeks too, so everything a file allows works; no protocol may be opened
     * from them (a playlist in the bytes cannot name other files or URLs).
     *
     * @param address first byte (must stay valid until {@link #free()})
     * @param length number of bytes, at least 1
     * @param label names the input in errors
     * @param mediaType AVMEDIA_TYPE_VIDEO or AVMEDIA_TYPE_AUDIO
     * @param limits checked against the header, and a duration it does not give on the frames
     * @return the opened decoder; the caller must {@link #free()} it
     */
    static StreamDecoder open(final long address, final long length, final String label, final int mediaType,
                              final MediaLimits limits) {
        if (length <= 0) {
            throw new MediaException(label, "empty input (0 bytes)");
        }
        if (address == 0) {
            throw new IllegalArgumentException(label + ": null address for " + length + " bytes");
        }
        final MemoryAvioInput memory = new MemoryAvioInput(label);
        final AVFormatContext format;
        try {
            format = memory.open(address, length, label, null);
            final int info = FileInputs.findStreamInfo(format, limits.maxPixels(), label);
            if (info < 0) {
                throw FFmpeg.failure(info, label, "avformat_find_stream_info");
            }
        } catch (final RuntimeException | Error e) {
            memory.free();
            throw e;
        }
        return openStream(label, format, memory, mediaType, limits);
    }

    /**
     * Finds the best stream of {@code mediaType} in an opened input, checks the limits and opens its decoder.
     *
     * @param memory the custom I/O of an input in memory, or null for a file; on failure the input is closed either way
     */
    private static StreamDecoder openStream(final String label, final AVFormatContext format,
                                            final MemoryAvioInput memory, final int mediaType,
                                            final MediaLimits limits) {
        AVCodecContext codec = null;
        try {
            final int index = avformat.av_find_best_stream(format, mediaType, -1, -1, (AVCodec) null, 0);
            if (index < 0) {
                throw new MediaException(label, "no " + avutil.av_get_media_type_string(mediaType).getString()
                        + " stream: " + FFmpeg.errorText(index), index, null);
            }
            final AVCodecParameters par = format.streams(index).codecpar();
            final double duration = HeaderDurations.streamSeconds(format, format.streams(index));
            if (duration > limits.maxDurationSeconds()) {
                throw new MediaException(label, "duration " + duration + " s exceeds the limit of "
                        + limits.maxDurationSeconds() + " s; raise MediaLimits.maxDurationSeconds");
            }
            if (mediaType == avutil.AVMEDIA_TYPE_VIDEO) {
                if (par.width() <= 0 && par.height() <= 0) { // no size declared, and no frame decoded within the limit
                    throw new MediaException(label, "frame size unknown: the container declares none and no frame"
                            + " decoded within the limit of " + limits.maxPixels() + " pixels; raise "
                            + "MediaLimits.maxPixels if the input is trusted");
                }
                limits.checkPixels(label, par.width(), par.height());
            }
            final AVCodec decoder = avcodec.avcodec_find_decoder(par.codec_id());
            if (decoder == null || decoder.isNull()) {
                throw new MediaException(label, "no decoder for " + avcodec.avcodec_get_name(par.codec_id()).getString()
                        + " in this FFmpeg build");
            }
            codec = NativeAllocations.allocate(() -> avcodec.avcodec_alloc_context3(decoder),
                    "avcodec_alloc_context3", label);
            NativeResourceCounter.allocated(Kind.CODEC_CONTEXT);
            FFmpeg.check(avcodec.avcodec_parameters_to_context(codec, par), label, "avcodec_parameters_to_context");
            codec.thread_count(1); // parallelism comes from many readers on many threads
            codec.max_pixels(limits.maxPixels());
            codec.pkt_timebase(format.streams(index).time_base());
            FFmpeg.check(avcodec.avcodec_open2(codec, decoder, (AVDictionary) null), label, "avcodec_open2");
            // On failure the catch frees the codec context and the input.
            final AVPacket packet = NativeAllocations.allocate(avcodec::av_packet_alloc, "av_packet_alloc", label);
            NativeResourceCounter.allocated(Kind.PACKET);
            return new StreamDecoder(label, format, memory, index, codec, packet,
                    duration > 0 ? 0 : limits.maxDurationSeconds());
        } catch (final RuntimeException | Error e) {
            if (codec != null) {
                avcodec.avcodec_free_context(codec);
                NativeResourceCounter.freed(Kind.CODEC_CONTEXT);
            }
            closeInput(format, memory);
            throw e;
        }
    }

    /** Closes a file's format context, or an input in memory with its I/O context and descriptor. */
    private static void closeInput(final AVFormatContext format, final MemoryAvioInput memory) {
        if (memory != null) {
            memory.free();
        } else {
            FileInputs.close(format);
        }
    }

    /**
     * Decodes the next frame of the stream into {@code frame} (unreferencing what it held).
     *
     * <p>A packet the decoder refuses as invalid data (AVERROR_INVALIDDATA from sending it or from receiving its
     * frame: a damaged frame header, a WAV cut mid-sample) is skipped and counted, as the ffmpeg program does; FFmpeg
     * leaves the decoder usable. The input is refused when more than half of the packets sent were invalid.
     *
     * @param frame the caller's frame
     * @return true with a frame, false at the end of the stream
     */
    boolean receive(final AVFrame frame) {
        avutil.av_frame_unref(frame);
        while (true) {
            final int got = avcodec.avcodec_receive_frame(codec, frame);
            if (got >= 0) {
                if (undeclaredDurationLimit > 0) {
                    checkDecodedDuration(frame);
                }
                return true;
            }
            if (got == avutil.AVERROR_EOF) {
                decoderDrained = true;
                if (invalidPackets * 2 > packetsSent) {
                    throw tooManyInvalidPackets();
                }
                return false;
            }
            if (got == avutil.AVERROR_INVALIDDATA) {
                skipInvalid(got, "avcodec_receive_frame");
                continue;
            }
            if (got != EAGAIN) {
                throw FFmpeg.failure(got, label, "avcodec_receive_frame");
            }
            if (inputEnded) {
                return false;
            }
            final int ret = avformat.av_read_frame(format, packet);
            if (ret == avutil.AVERROR_EOF) {
                inputEnded = true;
                FFmpeg.check(avcodec.avcodec_send_packet(codec, null), label, "avcodec_send_packet(flush)");
                continue;
            }
            FFmpeg.check(ret, label, "av_read_frame");
            if (packet.stream_index() == streamIndex) {
                final int sent = avcodec.avcodec_send_packet(codec, packet);
                avcodec.av_packet_unref(packet);
                packetsSent++;
                if (sent == avutil.AVERROR_INVALIDDATA) {
                    skipInvalid(sent, "avcodec_send_packet");
                } else {
                    FFmpeg.check(sent, label, "avcodec_send_packet");
                }
            } else {
                avcodec.av_packet_unref(packet);
            }
        }
    }

    /**
     * For an input that declares no duration (raw H.264, a FLAC stream without its sample count): throws once the
     * frames decoded reach past the duration limit, more than a rounding slack past it. What counts is the end of the
     * last frame, as a header's duration does: its start (its timestamp, or, without one, the last timestamp seen plus
     * the whole frame periods (video) or samples (audio) since) plus its own length.
     */
    private void checkDecodedDuration(final AVFrame frame) {
        final long ts = frame.best_effort_timestamp() != avutil.AV_NOPTS_VALUE ? frame.best_effort_timestamp()
                : frame.pts();
        final boolean audio = frame.sample_rate() > 0;
        if (ts != avutil.AV_NOPTS_VALUE) {
            if (firstTimestamp == avutil.AV_NOPTS_VALUE) {
                firstTimestamp = ts;
            }
            unstampedFrames = 0;
            unstampedSamples = 0;
            final double length = audio ? frame.nb_samples() / (double) frame.sample_rate()
                    : rateNum > 0 ? rateDen / (double) rateNum : 0;
            stampedEndSeconds = (ts - firstTimestamp) * timeBase + length;
            decodedSeconds = stampedEndSeconds;
        } else if (audio) {
            unstampedSamples += frame.nb_samples();
            decodedSeconds = stampedEndSeconds + unstampedSamples / (double) frame.sample_rate();
        } else {
            unstampedFrames++;
            decodedSeconds = stampedEndSeconds + (rateNum > 0 ? unstampedFrames * rateDen / (double) rateNum : 0);
        }
        if (decodedSeconds > undeclaredDurationLimit + durationSlack) {
            throw new MediaException(label, "the input declares no duration and decodes past "
                    + Math.round(decodedSeconds * 1000) / 1000.0
                    + " s, over the limit of " + undeclaredDurationLimit + " s; raise "
                    + "MediaLimits.maxDurationSeconds");
        }
    }

    /** Counts a packet refused as invalid data; throws once too many were. */
    private void skipInvalid(final int error, final String step) {
        invalidPackets++;
        lastInvalidError = error;
        lastInvalidStep = step;
        if (invalidPackets > INVALID_PACKETS_TOLERATED && invalidPackets * 2 > packetsSent) {
            throw tooManyInvalidPackets();
        }
    }

    private MediaException tooManyInvalidPackets() {
        return new MediaException(label, invalidPacketsNote(), lastInvalidError, null);
    }

    /**
     * {@return what was skipped as invalid data so far, for an exception's message, e.g. "3 of 5 packets could not be
     * decoded (last: avcodec_send_packet: Invalid data found when processing input (-1094995529))", or "" when
     * nothing was}
     */
    String invalidPacketsNote() {
        if (invalidPackets == 0) {
            return "";
        }
        invalidReported = true;
        return invalidPackets + " of " + packetsSent + " packets could not be decoded (last: " + lastInvalidStep + ": "
                + FFmpeg.errorText(lastInvalidError) + ")";
    }

    /**
     * Asks the demuxer for the keyframe at or before {@code timestamp} and flushes the decoder. Some demuxers land
     * later (MPEG-TS and MPEG-PS on any packet, MP4 after B-frames shown before the keyframe): the caller checks the
     * first frame decoded.
     *
     * @param timestamp in the stream's time base
     * @return false when the demuxer cannot seek (raw streams such as H.264 elementary streams); where it was left
     *         reading is then unknown, and the caller must reopen the input to read on
     */
    boolean seek(final long timestamp) {
        if (avformat.av_seek_frame(format, streamIndex, timestamp, avformat.AVSEEK_FLAG_BACKWARD) < 0) {
            return false;
        }
        avcodec.avcodec_flush_buffers(codec);
        inputEnded = false;
        decoderDrained = false;
        return true;
    }

    /** {@return whether packets were refused as invalid data so far (a truncated or corrupt stream)} */
    boolean skippedInvalid() {
        return invalidPackets > 0;
    }

    /** {@return packets of the stream sent to the decoder so far (for tests: the work a request costs)} */
    long packetsSent() {
        return packetsSent;
    }

    /** {@return whether the decoder has returned its last frame} */
    boolean drained() {
        return decoderDrained;
    }

    /** Frees the packet, the codec context and the input; logs a warning if packets were skipped as invalid. */
    void free() {
        if (invalidPackets > 0 && !invalidReported && LOG.isWarnEnabled()) {
            LOG.warn("{}: {}", label, invalidPacketsNote());
        }
        avcodec.av_packet_free(packet);
        NativeResourceCounter.freed(Kind.PACKET);
        avcodec.avcodec_free_context(codec);
        NativeResourceCounter.freed(Kind.CODEC_CONTEXT);
        closeInput(format, memory);
    }
}
