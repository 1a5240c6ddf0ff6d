package org.spdl4j.media;

import org.agrona.UnsafeApi;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.bytedeco.ffmpeg.avformat.Read_packet_Pointer_BytePointer_int;
import org.bytedeco.ffmpeg.avformat.Seek_Pointer_long_int;
import org.bytedeco.ffmpeg.avformat.Write_packet_Pointer_BytePointer_int;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * Opens bytes that already sit in native memory (an off-heap lease, a batch slot, a mapped file) as an FFmpeg input
 * through a custom AVIOContext: FFmpeg pulls bytes with a native-to-native copy into its I/O buffer, so there is no
 * temporary file and no copy onto the Java heap.
 *
 * <p>Not thread safe: owned by one decoder on one thread, with at most one input open at a time. The read/seek
 * callbacks are two process-wide stateless objects (JavaCPP limits how many callback instances exist); each input's
 * cursor lives in this object's native {@link MemoryInputDescriptor} block, passed to FFmpeg as {@code opaque}.
 *
 * <p>Ownership: {@link #open} allocates an AVFormatContext, an AVIOContext and its buffer; {@link #close} frees all
 * three, whether or not open succeeded. The descriptor block is freed by {@link #free()}.
 */
final class MemoryAvioInput {
    /** avformat.h AVFMT_FLAG_CUSTOM_IO (not exported by the Bytedeco preset): the caller owns {@code pb}. */
    private static final int AVFMT_FLAG_CUSTOM_IO = 0x0080;
    private static final ReadCallback READ = new ReadCallback();
    private static final SeekCallback SEEK = new SeekCallback();

    private final Pointer descriptor;
    private AVFormatContext format;
    private AVIOContext io;

    /**
     * Allocates the descriptor block.
     *
     * @param owner names the object being created, for the error when the allocation fails
     * @throws OutOfMemoryError when the allocation fails
     */
    MemoryAvioInput(final String owner) {
        FFmpeg.init();
        descriptor = NativeAllocations.allocate(() -> avutil.av_mallocz(MemoryInputDescriptor.LENGTH),
                "av_mallocz(" + MemoryInputDescriptor.LENGTH + ")", owner);
        NativeResourceCounter.allocated(Kind.BUFFER);
    }

    /**
     * Opens {@code length} bytes at {@code address} as an input.
     *
     * @param address first byte of the input (must stay valid until {@link #close})
     * @param length number of bytes
     * @param label names the input in errors
     * @param inputFormat the demuxer to use, or null to let FFmpeg probe
     * @return the opened format context, owned by this object until {@link #close}
     */
    AVFormatContext open(final long address, final long length, final String label, final AVInputFormat inputFormat) {
        if (format != null || io != null) {
            throw new IllegalStateException("previous input still open: close() it first");
        }
        final long d = descriptor.address();
        UnsafeApi.putLong(d + MemoryInputDescriptor.ADDRESS_OFFSET, address);
        UnsafeApi.putLong(d + MemoryInputDescriptor.LENGTH_OFFSET, length);
        UnsafeApi.putLong(d + MemoryInputDescriptor.POSITION_OFFSET, 0L);

        final int bufferSize = MediaConfiguration.AVIO_BUFFER_SIZE;
        final BytePointer buffer = new BytePointer(avutil.av_malloc(bufferSize));
        if (buffer.isNull()) {
            throw new OutOfMemoryError("av_malloc(" + bufferSize + ") failed for " + label);
        }
        io = avformat.avio_alloc_context(buffer, bufferSize, 0, descriptor, READ,
                (Write_packet_Pointer_BytePointer_int) null, SEEK);
        if (io == null || io.isNull()) {
            avutil.av_free(buffer);
            io = null;
            throw new OutOfMemoryError("avio_alloc_context failed for " + label);
        }
        NativeResourceCounter.allocated(Kind.IO_CONTEXT);
        format = avformat.avformat_alloc_context();
        if (format == null || format.isNull()) {
            format = null;
            throw new OutOfMemoryError("avformat_alloc_context failed for " + label);
        }
        NativeResourceCounter.allocated(Kind.FORMAT_CONTEXT);
        format.pb(io);
        format.flags(format.flags() | AVFMT_FLAG_CUSTOM_IO);
        // No protocol at all: the bytes are all the input there is. Without this, bytes that look like a playlist
        // (ffconcat, HLS, ...) would make their demuxer open other files or URLs named inside them, relative to the
        // working directory. One small dictionary per open (native, freed below): nothing next to a decode.
        final AVDictionary options = new AVDictionary(null);
        final int set = NativeAllocations.dictSet(options, "protocol_whitelist", "none");
        if (set < 0) {
            avutil.av_dict_free(options); // the I/O and format contexts go in close(), as on every failure here
            throw FFmpeg.failure(set, label, "av_dict_set(protocol_whitelist), without which the input is not opened");
        }
        final int ret;
        try {
            ret = avformat.avformat_open_input(format, (String) null, inputFormat, options);
        } finally {
            avutil.av_dict_free(options);
        }
        if (ret < 0) {
            // avformat_open_input frees the context on failure (and zeroes our pointer); the custom I/O is ours.
            format = null;
            NativeResourceCounter.freed(Kind.FORMAT_CONTEXT);
            throw FFmpeg.failure(ret, label, "avformat_open_input");
        }
        return format;
    }

    /** Closes the open input, if any, and frees its I/O context and buffer. Safe to call on every path. */
    void close() {
        if (format != null) {
            avformat.avformat_close_input(format);
            format = null;
            NativeResourceCounter.freed(Kind.FORMAT_CONTEXT);
        }
        if (io != null) {
            // FFmpeg may have replaced the buffer we gave it (probing resizes it): free the current one.
            avutil.av_free(io.buffer());
            avformat.avio_context_free(io);
            io = null;
            NativeResourceCounter.freed(Kind.IO_CONTEXT);
        }
    }

    /** Closes any open input and frees the descriptor block; the object is unusable afterwards. */
    void free() {
        close();
        avutil.av_free(descriptor);
        descriptor.setNull();
        NativeResourceCounter.freed(Kind.BUFFER);
    }

    /** Copies the next bytes of the input into FFmpeg's buffer; AVERROR_EOF at the end. Stateless. */
    private static final class ReadCallback extends Read_packet_Pointer_BytePointer_int {
        @Override
        public int call(final Pointer opaque, final BytePointer buf, final int size) {
            // JavaCPP wraps opaque and buf in two small objects per call (one call per AVIO buffer refill).
            final long d = opaque.address();
            final long address = UnsafeApi.getLong(d + MemoryInputDescriptor.ADDRESS_OFFSET);
            final long length = UnsafeApi.getLong(d + MemoryInputDescriptor.LENGTH_OFFSET);
            final long position = UnsafeApi.getLong(d + MemoryInputDescriptor.POSITION_OFFSET);
            final long n = Math.min(size, length - position);
            if (n <= 0) {
                return avutil.AVERROR_EOF;
            }
            UnsafeApi.copyMemory(address + position, buf.address(), n);
            UnsafeApi.putLong(d + MemoryInputDescriptor.POSITION_OFFSET, position + n);
            return (int) n;
        }
    }

    /** Moves the cursor (SEEK_SET/CUR/END) or reports the size (AVSEEK_SIZE). Stateless. */
    private static final class SeekCallback extends Seek_Pointer_long_int {
        private static final int SEEK_SET = 0;
        private static final int SEEK_CUR = 1;
        private static final int SEEK_END = 2;
        private static final int EINVAL = 22;

        @Override
        public long call(final Pointer opaque, final long offset, final int whence) {
            final long d = opaque.address();
            final long length = UnsafeApi.getLong(d + MemoryInputDescriptor.LENGTH_OFFSET);
            if ((whence & avformat.AVSEEK_SIZE) != 0) {
                return length;
            }
            final long position = UnsafeApi.getLong(d + MemoryInputDescriptor.POSITION_OFFSET);
            final long target = switch (whence & ~avformat.AVSEEK_FORCE) {
                case SEEK_SET -> offset;
                case SEEK_CUR -> position + offset;
                case SEEK_END -> length + offset;
                default -> -1;
            };
            if (target < 0 || target > length) {
                return -EINVAL; // AVERROR(EINVAL): FFmpeg's POSIX errors are negated errno
            }
            UnsafeApi.putLong(d + MemoryInputDescriptor.POSITION_OFFSET, target);
            return target;
        }
    }
}
