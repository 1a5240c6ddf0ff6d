package org.spdl4j.media;

import org.spdl4j.offheap.batch.SampleSeeds;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVPixFmtDescriptor;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.Pointer;

import java.lang.ref.Reference;
import java.nio.file.Path;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * Decodes one image (JPEG, PNG, WebP, BMP, or anything else FFmpeg probes) and writes it, resized and converted per
 * an {@link ImageSpec}, straight to a destination in native memory, in one scaler pass.
 *
 * <p><b>Threading:</b> confined to the thread that created it (checked; other threads get IllegalStateException).
 * For many threads use {@link PerThreadImageDecoders}, which keeps one of these per thread.
 *
 * <p><b>Reduced decoding:</b> a JPEG whose output needs no more than 1/8 (1/4) of its pixels per side is decoded from
 * its DC coefficient (four lowest frequencies) per block by {@link ReducedJpegDecoder}, bit for bit FFmpeg's lowres 3
 * (lowres 2) and faster; one needing 1/2 goes to FFmpeg's mjpeg decoder with {@code lowres}; see
 * {@link ScalePlan#chooseLowres}. A JPEG outside the reduced
 * decoder's scope (progressive, CMYK, ...) or one it finds corrupt goes to FFmpeg, whose verdict is final.
 *
 * <p><b>Training transform:</b> with {@link ImageSpec#randomResizedCrop} each image's crop and flip come from the
 * seed passed with it (the {@code seed} overloads; the others refuse such a spec). The crop is chosen in the full-size
 * source's pixels from the header, before decoding ({@link RandomResizedCrop}); the reduced JPEG scale follows from
 * the crop's own downscale factor ({@link ScalePlan#cropLowres}); the scaler reads only the crop (source plane
 * pointers offset to its origin, rounded down to the chroma grid) and writes the destination; a flip then reverses
 * the destination rows in place ({@link RowMirror}). No buffer beyond those of a center-crop decode; the scaler
 * context is rebuilt when the crop's size changes, i.e. for nearly every image.
 *
 * <p><b>JPEG without a demuxer:</b> a JPEG whose frame header gives its size is sent to the mjpeg decoder as one
 * packet (the bytes copied once into FFmpeg's padded packet buffer), without the demuxer, its I/O context and the
 * frame parser, which took about a tenth of a small photo's decode; other formats, and a JPEG whose frame header is
 * not found, go through the demuxer.
 *
 * <p><b>Allocation and reuse:</b> the packet, frame, scaler, I/O descriptor, reduced-scale JPEG decoder and the codec
 * contexts (one per codec, DCT scale and, for JPEG, set of tables the image defines: see {@link CodecContextCache})
 * are allocated once and reused for every item. Per item FFmpeg allocates the
 * demuxer context, the I/O context and the decoded frame's buffers; all are freed before the call returns, on success
 * and on failure.
 *
 * <p><b>Memory:</b> inputs are read in place from native memory (an off-heap lease); a path is first read into this
 * decoder's native scratch buffer; a heap-backed buffer is copied there too. Output goes directly to the destination.
 * Before an image whose header gives its size (JPEG, PNG, WebP, BMP, TIFF) is decoded, the memory its decode takes
 * ({@link DecodeMemoryEstimate}) is reserved from a {@link DecodeMemoryBudget} shared with the other decoders (by
 * default {@link DecodeMemoryBudget#shared()}), waiting while it does not fit, and given back when the image is done:
 * peak decode memory is bounded by the budget, not by the largest image times the decode threads. A codec context
 * that decoded a frame over {@link MediaConfiguration#LARGEST_POOLED_FRAME_BYTES} is freed with it, so that its
 * buffer pool does not keep that memory. Other formats (GIF, ...) are decoded without a reservation.
 *
 * <p><b>Fallback:</b> a JPEG whose reduced-scale decode fails (FFmpeg's lowres refuses CMYK and YCCK JPEGs with
 * subsampled chroma) is decoded once more at full scale, whose verdict is final; each cause is logged once.
 *
 * <p><b>Errors:</b> every failure is a {@link MediaException} naming the input, with FFmpeg's error text.
 * Oversized images ({@link MediaLimits#maxPixels()}) are refused from the header, before decoding.
 */
public final class SingleThreadImageDecoder implements AutoCloseable {
    private static final int EAGAIN = -11; // AVERROR(EAGAIN)
    private static final int EINVAL = -22; // AVERROR(EINVAL)
    private static final int ENOMEM = -12; // AVERROR(ENOMEM)
    /** frame.h AV_FRAME_FLAG_CORRUPT (not exported by the Bytedeco preset). */
    private static final int AV_FRAME_FLAG_CORRUPT = 1;
    private static final long PACKET_DATA_OFFSET = packetOffset("data");
    private static final long PACKET_SIZE_OFFSET = packetOffset("size");
    /** Names the decoder in the error when one of its allocations fails (it has no input yet). */
    private static final String NEW_DECODER = "a new image decoder";

    /**
     * The one thread allowed to decode. Moved only by {@link #handOffTo}, whose caller publishes the decoder to the
     * new thread through a concurrent queue (happens-before), so a plain field suffices.
     */
    private Thread owner = Thread.currentThread();
    private final MediaLimits limits;
    private final DecodeMemoryBudget budget;
    /** When the current decode should be done ({@link #deadline}), or Long.MAX_VALUE; confined to the owner. */
    private long deadlineNanos = Long.MAX_VALUE;
    private final MemoryAvioInput input;
    private final CodecContextCache codecs;
    private final FrameScaler scaler;
    private final ScratchBuffer scratch = new ScratchBuffer();
    private final ScalePlan plan = new ScalePlan();
    private final AVPacket packet;
    private final AVFrame frame;
    /** Null when spdl4j's reduced-scale JPEG decoding is off (the constructor's {@code reducedJpegDecode}). */
    private final ReducedJpegDecoder reducedDecoder;
    private int lastWidth;
    private int lastHeight;
    private int lastLowres;
    private boolean lastReduced;
    private boolean closed;

    /**
     * Creates a decoder owned by the calling thread, with spdl4j's reduced-scale JPEG decoder on
     * ({@link MediaConfiguration#DEFAULT_REDUCED_JPEG_DECODE}).
     *
     * @param limits the limits every input is checked against
     * @throws OutOfMemoryError when a native allocation fails (those made before it are freed)
     */
    public SingleThreadImageDecoder(final MediaLimits limits) {
        this(limits, MediaConfiguration.DEFAULT_REDUCED_JPEG_DECODE);
    }

    /**
     * Creates a decoder owned by the calling thread, choosing whether 1/8- and 1/4-scale JPEGs use spdl4j's own
     * reduced-scale decoder.
     *
     * @param limits the limits every input is checked against
     * @param reducedJpegDecode true to decode 1/8- and 1/4-scale JPEGs with {@link ReducedJpegDecoder}, false to leave
     *                          them to FFmpeg
     * @throws OutOfMemoryError when a native allocation fails (those made before it are freed)
     */
    public SingleThreadImageDecoder(final MediaLimits limits, final boolean reducedJpegDecode) {
        this(limits, reducedJpegDecode, DecodeMemoryBudget.shared());
    }

    /**
     * Creates a decoder owned by the calling thread, choosing the reduced-scale JPEG decoder and the decode memory
     * budget it reserves each image's decoded size from.
     *
     * @param limits the limits every input is checked against
     * @param reducedJpegDecode true to decode 1/8- and 1/4-scale JPEGs with {@link ReducedJpegDecoder}, false to leave
     *                          them to FFmpeg
     * @param budget the budget shared with the other decoders that should wait for one another
     *               ({@link DecodeMemoryBudget#shared()} by default)
     * @throws OutOfMemoryError when a native allocation fails (those made before it are freed)
     */
    public SingleThreadImageDecoder(final MediaLimits limits, final boolean reducedJpegDecode,
                                    final DecodeMemoryBudget budget) {
        this.limits = limits;
        this.budget = java.util.Objects.requireNonNull(budget, "budget");
        this.codecs = new CodecContextCache(limits.maxPixels()); // allocates nothing until the first image
        MemoryAvioInput in = null;
        FrameScaler sc = null;
        ReducedJpegDecoder reduced = null;
        AVPacket pkt = null;
        try {
            in = new MemoryAvioInput(NEW_DECODER);
            sc = new FrameScaler(NEW_DECODER);
            reduced = reducedJpegDecode ? new ReducedJpegDecoder() : null;
            pkt = NativeAllocations.allocate(avcodec::av_packet_alloc, "av_packet_alloc", NEW_DECODER);
            NativeResourceCounter.allocated(Kind.PACKET);
            this.frame = NativeAllocations.allocate(avutil::av_frame_alloc, "av_frame_alloc", NEW_DECODER);
            NativeResourceCounter.allocated(Kind.FRAME);
        } catch (final RuntimeException | Error e) {
            if (pkt != null) {
                avcodec.av_packet_free(pkt);
                NativeResourceCounter.freed(Kind.PACKET);
            }
            if (reduced != null) {
                reduced.free();
            }
            if (sc != null) {
                sc.free();
            }
            if (in != null) {
                in.free();
            }
            throw e;
        }
        this.input = in;
        this.scaler = sc;
        this.reducedDecoder = reduced;
        this.packet = pkt;
    }

    /**
     * Decodes an image file into a destination buffer.
     *
     * @param path the image file
     * @param spec the output description
     * @param dst the destination (e.g. a lease's buffer)
     * @param dstOffset where in {@code dst} the image starts; {@code spec.bytes()} bytes must fit
     * @return bytes written ({@code spec.bytes()})
     */
    public int decodeFile(final Path path, final ImageSpec spec, final MutableDirectBuffer dst, final int dstOffset) {
        try {
            return decodeFile(path, spec, nativeAddress(dst, dstOffset, path.toString()), dst.capacity() - dstOffset);
        } finally {
            // Only dst's address goes on: without the fence, the JIT may treat dst as dead, and a direct ByteBuffer
            // nothing else holds could be freed by its Cleaner while swscale writes into it.
            Reference.reachabilityFence(dst);
        }
    }

    /**
     * Decodes an image file to a raw destination address.
     *
     * @param path the image file
     * @param spec the output description
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available at {@code dstAddress}
     * @return bytes written ({@code spec.bytes()})
     */
    public int decodeFile(final Path path, final ImageSpec spec, final long dstAddress, final long dstCapacity) {
        checkOwner();
        requireUnseeded(spec);
        final String label = path.toString();
        final long length = scratch.readFile(path, limits.maxInputBytes(), label);
        return decode(scratch.address(), length, label, spec, 0, dstAddress, dstCapacity);
    }

    /**
     * Decodes image bytes held in a buffer (normally an off-heap lease, read in place).
     *
     * @param src the encoded bytes; heap-backed buffers are copied into native scratch memory first
     * @param srcOffset first byte of the image in {@code src}
     * @param srcLength number of bytes
     * @param label names the input in errors (e.g. its path or key)
     * @param spec the output description
     * @param dst the destination
     * @param dstOffset where in {@code dst} the image starts
     * @return bytes written ({@code spec.bytes()})
     */
    public int decode(final DirectBuffer src, final int srcOffset, final int srcLength, final String label,
                      final ImageSpec spec, final MutableDirectBuffer dst, final int dstOffset) {
        requireUnseeded(spec);
        return decode(src, srcOffset, srcLength, label, spec, 0, dst, dstOffset);
    }

    /**
     * Decodes image bytes held in a buffer, with a seed for a random spec ({@link ImageSpec#randomResizedCrop}).
     *
     * @param src the encoded bytes; heap-backed buffers are copied into native scratch memory first
     * @param srcOffset first byte of the image in {@code src}
     * @param srcLength number of bytes
     * @param label names the input in errors (e.g. its path or key)
     * @param spec the output description
     * @param seed this image's seed (see {@link SampleSeeds}); ignored by the deterministic modes
     * @param dst the destination
     * @param dstOffset where in {@code dst} the image starts
     * @return bytes written ({@code spec.bytes()})
     */
    public int decode(final DirectBuffer src, final int srcOffset, final int srcLength, final String label,
                      final ImageSpec spec, final long seed, final MutableDirectBuffer dst, final int dstOffset) {
        checkOwner();
        src.boundsCheck(srcOffset, srcLength);
        try {
            final long srcAddress;
            if (src.byteArray() != null) {
                checkInputLength(srcLength, label); // before the copy: it would grow the scratch buffer to the input
                srcAddress = scratch.copyFrom(src, srcOffset, srcLength);
            } else {
                srcAddress = src.addressOffset() + srcOffset;
            }
            return decode(srcAddress, srcLength, label, spec, seed, nativeAddress(dst, dstOffset, label),
                    dst.capacity() - dstOffset);
        } finally {
            // Only raw addresses go on to FFmpeg: keep both buffers (and the direct ByteBuffers they may wrap)
            // reachable until it is done, or a GC could free their memory under the decode.
            Reference.reachabilityFence(src);
            Reference.reachabilityFence(dst);
        }
    }

    /**
     * Decodes image bytes at a native address into a native destination: the core call the others delegate to.
     *
     * @param srcAddress first encoded byte (must stay valid for the call)
     * @param srcLength number of encoded bytes
     * @param label names the input in errors
     * @param spec the output description
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available at {@code dstAddress}; at least {@code spec.bytes()}
     * @return bytes written ({@code spec.bytes()})
     */
    public int decode(final long srcAddress, final long srcLength, final String label, final ImageSpec spec,
                      final long dstAddress, final long dstCapacity) {
        requireUnseeded(spec);
        return decode(srcAddress, srcLength, label, spec, 0, dstAddress, dstCapacity);
    }

    /**
     * Decodes image bytes at a native address into a native destination, with a seed for a random spec: the core
     * call every other delegates to.
     *
     * @param srcAddress first encoded byte (must stay valid for the call)
     * @param srcLength number of encoded bytes
     * @param label names the input in errors
     * @param spec the output description
     * @param seed this image's seed, e.g. {@link SampleSeeds#of}(run seed, epoch, sample id): the same seed gives
     *             the same crop and flip; ignored by the deterministic modes
     * @param dstAddress first byte of the destination
     * @param dstCapacity bytes available at {@code dstAddress}; at least {@code spec.bytes()}
     * @return bytes written ({@code spec.bytes()})
     */
    public int decode(final long srcAddress, final long srcLength, final String label, final ImageSpec spec,
                      final long seed, final long dstAddress, final long dstCapacity) {
        checkOwner();
        if (dstCapacity < spec.bytes()) {
            throw new MediaException(label, "destination holds " + dstCapacity + " bytes; the spec needs "
                    + spec.bytes() + " (" + spec.width() + "x" + spec.height() + "x" + spec.format().channels() + ")");
        }
        checkInputLength(srcLength, label);
        final AVInputFormat demuxer = ImageSniffer.inputFormat(srcAddress, srcLength);
        int lowres = 0;
        int headerWidth = 0;
        int headerHeight = 0;
        final long size = ImageSniffer.declaredSize(demuxer, srcAddress, srcLength);
        if (size >= 0) {
            // Refuse bombs from the header, before FFmpeg allocates anything for the image.
            headerWidth = (int) (size >>> 32);
            headerHeight = (int) (size & 0xFFFF_FFFFL);
            limits.checkPixels(label, headerWidth, headerHeight);
        }
        // Without a size from the header (a format not parsed here, or a JPEG whose frame header was not found) the
        // image goes to FFmpeg at full scale, whose verdict is final: max_pixels on the codec context still refuses
        // an oversized frame before it is allocated.
        final boolean random = spec.mode() == ResizeMode.RANDOM_RESIZED_CROP;
        plan.clearCrop();
        if (random && headerWidth > 0 && headerHeight > 0) {
            spec.randomCrop().choose(headerWidth, headerHeight, seed, plan); // before decoding: picks the scale
        }
        final boolean sized = headerWidth > 0 && headerHeight > 0;
        if (demuxer == ImageSniffer.JPEG && sized) {
            lowres = random ? plan.cropLowres(spec) : ScalePlan.chooseLowres(spec, headerWidth, headerHeight);
            if (lowres > 0 && ImageSniffer.jpegIsLossless(srcAddress, srcLength)) {
                lowres = 0; // lossless JPEG and JPEG-LS have no DCT to reduce: FFmpeg refuses lowres for them
            }
        }
        long reserved = 0;
        try {
            if (sized) {
                reserved = reserve(demuxer, srcAddress, srcLength, headerWidth, headerHeight, lowres, label);
            }
            try {
                return decodeAt(srcAddress, srcLength, label, spec, seed, dstAddress, demuxer, headerWidth,
                        headerHeight, lowres);
            } catch (final MediaException reducedFailure) {
                if (lowres == 0 || reducedFailure.errorCode() == ENOMEM) {
                    throw reducedFailure; // out of memory is no matter of scale: the full decode would need more
                }
                // Some JPEGs decode at full scale only (FFmpeg's lowres refuses a CMYK or YCCK JPEG whose chroma is
                // subsampled: "Not yet implemented in FFmpeg"): retry once at full scale, whose verdict is final.
                ReducedScaleFallbacks.record(reducedFailure, lowres);
                try {
                    if (sized) {
                        budget.release(reserved);
                        reserved = 0;
                        reserved = reserve(demuxer, srcAddress, srcLength, headerWidth, headerHeight, 0, label);
                    }
                    return decodeAt(srcAddress, srcLength, label, spec, seed, dstAddress, demuxer, headerWidth,
                            headerHeight, 0);
                } catch (final MediaException e) {
                    e.addSuppressed(reducedFailure);
                    throw e;
                }
            }
        } finally {
            budget.release(reserved);
        }
    }

    /** Reserves an image's decode memory from the budget; returns the bytes reserved. */
    private long reserve(final AVInputFormat demuxer, final long srcAddress, final long srcLength, final int width,
                         final int height, final int lowres, final String label) {
        final long bytes = DecodeMemoryEstimate.bytes(demuxer, srcAddress, srcLength, width, height, lowres);
        budget.reserve(bytes, label, DecodeMemoryEstimate.describe(demuxer, width, height)
                + (lowres > 0 ? " at 1/" + (1 << lowres) + " scale" : ""), deadlineNanos);
        return bytes;
    }

    /** Decodes at one DCT scale (0 for anything but JPEG), its decode memory reserved. */
    private int decodeAt(final long srcAddress, final long srcLength, final String label, final ImageSpec spec,
                         final long seed, final long dstAddress, final AVInputFormat demuxer, final int headerWidth,
                         final int headerHeight, final int lowres) {
        MediaException reducedFailure = null;
        if (lowres >= ReducedJpegDecoder.MIN_LOWRES && reducedDecoder != null) {
            try {
                final AVFrame reduced = reducedDecoder.decode(srcAddress, srcLength, lowres, limits, label);
                if (reduced != null) {
                    scale(reduced, spec, lowres, seed, dstAddress, label);
                    remember(headerWidth, headerHeight, reduced, lowres, true);
                    return spec.bytes();
                }
            } catch (final MediaException e) {
                reducedFailure = e; // FFmpeg decides below: it decodes the input or fails with its own error text
            }
        }
        AVCodecContext codec = null;
        try {
            if (demuxer == ImageSniffer.JPEG && headerWidth > 0 && headerHeight > 0) {
                // A JPEG whose frame header was found is one packet: straight to the decoder, no demuxer or parser.
                codec = codecs.get(avcodec.AV_CODEC_ID_MJPEG, lowres, ImageSniffer.jpegContextKey(srcAddress,
                        srcLength), label);
                codec.max_pixels(Math.max(limits.maxPixels(), ((headerWidth + 63L) & ~63L) * headerHeight));
                receiveJpegFrame(srcAddress, srcLength, codec, label);
                scale(frame, spec, lowres, seed, dstAddress, label);
                remember(headerWidth, headerHeight, frame, lowres, false);
                return spec.bytes();
            }
            final AVFormatContext format = input.open(srcAddress, srcLength, label, demuxer);
            if (format.nb_streams() < 1) {
                throw new MediaException(label, "no stream found: not an image FFmpeg can read");
            }
            final AVCodecParameters par = format.streams(0).codecpar();
            if (par.codec_type() != avutil.AVMEDIA_TYPE_VIDEO) {
                throw new MediaException(label, "not an image (stream type " + par.codec_type() + ")");
            }
            if (par.width() > 0 && par.height() > 0) {
                limits.checkPixels(label, par.width(), par.height());
            }
            final int key = demuxer == ImageSniffer.JPEG ? ImageSniffer.jpegContextKey(srcAddress, srcLength) : 0;
            codec = codecs.get(par.codec_id(), lowres, key, label);
            // FFmpeg checks max_pixels against the width padded to its row alignment (64) when it allocates the
            // frame: a size within the limit, checked above from the header, would fail there as "Invalid argument".
            final int width = headerWidth > 0 ? headerWidth : par.width();
            final int height = headerHeight > 0 ? headerHeight : par.height();
            codec.max_pixels(width > 0 && height > 0
                    ? Math.max(limits.maxPixels(), ((width + 63L) & ~63L) * height) : limits.maxPixels());
            receiveFrame(format, codec, label, width > 0 && height > 0);
            scale(frame, spec, lowres, seed, dstAddress, label);
            remember(headerWidth, headerHeight, frame, lowres, false);
            return spec.bytes();
        } catch (final MediaException e) {
            if (reducedFailure != null) {
                e.addSuppressed(reducedFailure);
            }
            throw e;
        } finally {
            final boolean large = frameBytes(frame) > MediaConfiguration.LARGEST_POOLED_FRAME_BYTES;
            avutil.av_frame_unref(frame);
            avcodec.av_packet_unref(packet);
            input.close();
            if (large && codec != null) {
                codecs.evict(codec); // its buffer pool would keep the frame's memory outside the budget
            }
        }
    }

    /** {@return bytes of the buffers a decoded frame holds (0 when it holds none)} */
    private static long frameBytes(final AVFrame decoded) {
        long total = 0;
        for (int i = 0; i < 8; i++) {
            final org.bytedeco.ffmpeg.avutil.AVBufferRef buf = decoded.buf(i);
            if (buf == null || buf.isNull()) {
                break;
            }
            total += buf.size();
        }
        return total;
    }

    /** Refuses an empty input and one over {@link MediaLimits#maxInputBytes()}. */
    private void checkInputLength(final long srcLength, final String label) {
        if (srcLength <= 0) {
            throw new MediaException(label, "empty input (0 bytes)");
        }
        if (srcLength > limits.maxInputBytes()) {
            throw new MediaException(label, srcLength + " bytes exceeds the limit of " + limits.maxInputBytes()
                    + "; raise MediaLimits.maxInputBytes if the input is trusted");
        }
    }

    private void scale(final AVFrame decoded, final ImageSpec spec, final int lowres, final long seed,
                       final long dstAddress, final String label) {
        final AVPixFmtDescriptor desc = avutil.av_pix_fmt_desc_get(decoded.format());
        if (desc == null || desc.isNull()) {
            throw new MediaException(label, "decoder produced no pixel format");
        }
        final boolean random = spec.mode() == ResizeMode.RANDOM_RESIZED_CROP;
        if (random && !plan.hasCrop) {
            // no size in the header (a format the sniffer does not parse): decoded at full size, choose from the frame
            spec.randomCrop().choose(decoded.width(), decoded.height(), seed, plan);
        }
        plan.compute(spec, decoded.width(), decoded.height(), lowres, FrameScaler.cropAlignLog2W(desc),
                FrameScaler.cropAlignLog2H(desc));
        scaler.scale(decoded, plan, spec, dstAddress, label);
        if (random && plan.flip) {
            RowMirror.mirror(dstAddress, spec.width(), spec.height(), spec.format().channels());
        }
    }

    /** The unseeded calls would give every image the same crop: refuse a random spec there and say what to call. */
    private static void requireUnseeded(final ImageSpec spec) {
        if (spec.mode() == ResizeMode.RANDOM_RESIZED_CROP) {
            throw new IllegalArgumentException("a RANDOM_RESIZED_CROP spec needs a seed per image: call the decode"
                    + " overload taking a seed (e.g. SampleSeeds.of(runSeed, epoch, sampleId))");
        }
    }

    private void remember(final int headerWidth, final int headerHeight, final AVFrame decoded, final int lowres,
                          final boolean byReducedDecoder) {
        lastWidth = headerWidth > 0 ? headerWidth : decoded.width();
        lastHeight = headerHeight > 0 ? headerHeight : decoded.height();
        lastLowres = lowres;
        lastReduced = byReducedDecoder;
    }

    /**
     * Sends a whole JPEG as one packet and receives its frame; corrupt frames are failures. The packet points at the
     * input without owning it (no buffer reference): FFmpeg copies the bytes, with its padding, into a buffer of its
     * own, and the packet's fields are cleared before this returns.
     */
    private void receiveJpegFrame(final long srcAddress, final long srcLength, final AVCodecContext codec,
                                  final String label) {
        final long p = packet.address();
        UnsafeApi.putLong(p + PACKET_DATA_OFFSET, srcAddress);
        UnsafeApi.putInt(p + PACKET_SIZE_OFFSET, (int) srcLength);
        final int sent;
        try {
            sent = avcodec.avcodec_send_packet(codec, packet);
        } finally {
            UnsafeApi.putLong(p + PACKET_DATA_OFFSET, 0L);
            UnsafeApi.putInt(p + PACKET_SIZE_OFFSET, 0);
        }
        FFmpeg.check(sent, label, "avcodec_send_packet");
        int ret = avcodec.avcodec_receive_frame(codec, frame);
        if (ret == EAGAIN) {
            FFmpeg.check(avcodec.avcodec_send_packet(codec, null), label, "avcodec_send_packet(flush)");
            ret = avcodec.avcodec_receive_frame(codec, frame);
        }
        if (ret < 0) {
            throw ret == avutil.AVERROR_EOF
                    ? new MediaException(label, "no image decoded: input ended before a complete frame", ret, null)
                    : FFmpeg.failure(ret, label, "avcodec_receive_frame");
        }
        checkFrame(label);
    }

    /** {@return the offset of an AVPacket field} Loads libavcodec first: JavaCPP knows the offsets once it is loaded. */
    private static long packetOffset(final String member) {
        org.bytedeco.javacpp.Loader.load(avcodec.class);
        return Pointer.offsetof(AVPacket.class, member);
    }

    /** Corrupt or oversized decoded frames are failures. */
    private void checkFrame(final String label) {
        if ((frame.flags() & AV_FRAME_FLAG_CORRUPT) != 0 || frame.decode_error_flags() != 0) {
            throw new MediaException(label, "decoded with errors (corrupt or truncated data, decode_error_flags="
                    + frame.decode_error_flags() + ")");
        }
        limits.checkPixels(label, frame.width(), frame.height());
    }

    /**
     * Reads packets of stream 0 until the decoder returns one frame; corrupt frames are failures.
     *
     * @param sized whether the image's size was known (and checked) before decoding; when it was not, FFmpeg's
     *              refusal of a frame over {@code max_pixels} (EINVAL) is reported as the pixel limit it is
     */
    private void receiveFrame(final AVFormatContext format, final AVCodecContext codec, final String label,
                              final boolean sized) {
        while (true) {
            int ret = avformat.av_read_frame(format, packet);
            if (ret == avutil.AVERROR_EOF) {
                FFmpeg.check(avcodec.avcodec_send_packet(codec, null), label, "avcodec_send_packet(flush)");
                ret = avcodec.avcodec_receive_frame(codec, frame);
                if (ret < 0) {
                    throw ret == avutil.AVERROR_EOF
                            ? new MediaException(label, "no image decoded: input ended before a complete frame",
                                    ret, null)
                            : FFmpeg.failure(ret, label, "avcodec_receive_frame");
                }
                break;
            }
            FFmpeg.check(ret, label, "av_read_frame");
            if (packet.stream_index() != 0) {
                avcodec.av_packet_unref(packet);
                continue;
            }
            ret = avcodec.avcodec_send_packet(codec, packet);
            avcodec.av_packet_unref(packet);
            if (ret == EINVAL && !sized) {
                throw new MediaException(label, "FFmpeg refused the frame's size (avcodec_send_packet failed: "
                        + FFmpeg.errorText(ret) + "): it must fit the limit of " + limits.maxPixels()
                        + " pixels with its width padded to a multiple of 64; raise MediaLimits.maxPixels if the"
                        + " input is trusted", ret, null);
            }
            FFmpeg.check(ret, label, "avcodec_send_packet");
            ret = avcodec.avcodec_receive_frame(codec, frame);
            if (ret >= 0) {
                break;
            }
            if (ret != EAGAIN) {
                throw FFmpeg.failure(ret, label, "avcodec_receive_frame");
            }
        }
        checkFrame(label);
    }

    /**
     * Sets when the next decodes should be done ({@link System#nanoTime()}, or Long.MAX_VALUE for no deadline): a wait
     * for the decode memory budget gives up then. Set by {@link PerThreadImageDecoders} around one call.
     */
    void deadline(final long nanos) {
        deadlineNanos = nanos;
    }

    /** {@return the width of the last successfully decoded source image (its header size, before lowres)} */
    public int lastSourceWidth() {
        return lastWidth;
    }

    /** {@return the height of the last successfully decoded source image} */
    public int lastSourceHeight() {
        return lastHeight;
    }

    /** {@return the DCT scale reduction used for the last image: 0 = full, 1 = 1/2, 2 = 1/4, 3 = 1/8} */
    public int lastLowres() {
        return lastLowres;
    }

    /** {@return whether the last image was decoded by {@link ReducedJpegDecoder} (1/8 or 1/4 scale), not FFmpeg} */
    boolean lastReduced() {
        return lastReduced;
    }

    private static long nativeAddress(final MutableDirectBuffer dst, final int offset, final String label) {
        if (dst.byteArray() != null) {
            throw new MediaException(label, "destination must be native memory (an off-heap lease), not a heap array");
        }
        if (offset < 0 || offset > dst.capacity()) {
            throw new MediaException(label, "destination offset " + offset + " outside capacity " + dst.capacity());
        }
        return dst.addressOffset() + offset;
    }

    /**
     * Moves the decoder to another thread, for a pool that lends decoders to short-lived (virtual) threads. Called by
     * the current owner, or by the pool while no thread uses the decoder; the pool's queue hand-off orders this write
     * before the new owner's first call.
     */
    void handOffTo(final Thread next) {
        owner = next;
    }

    private void checkOwner() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("SingleThreadImageDecoder owned by " + owner.getName()
                    + " used from " + Thread.currentThread().getName() + "; use PerThreadImageDecoders");
        }
        if (closed) {
            throw new IllegalStateException("decoder closed");
        }
    }

    /** Frees every native resource this decoder owns. Idempotent; call it from the owning thread or after it ended. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        input.free();
        codecs.free();
        scaler.free();
        if (reducedDecoder != null) {
            reducedDecoder.free();
        }
        avcodec.av_packet_free(packet);
        NativeResourceCounter.freed(Kind.PACKET);
        avutil.av_frame_free(frame);
        NativeResourceCounter.freed(Kind.FRAME);
        scratch.free();
    }
}
