package org.spdl4j.media;

/**
 * Layout of the native block FFmpeg's read/seek callbacks use to read an in-memory input (the AVIOContext
 * {@code opaque}). Keeping the cursor in native memory lets one stateless callback object serve every thread.
 *
 * <pre>
 *   0               8               16              24
 *   +---------------+---------------+---------------+
 *   | data address  | length        | position      |   all little-endian int64, written by the owning thread
 *   +---------------+---------------+---------------+
 * </pre>
 *
 * <p>Thread safety: one block per decoder; written by the owning thread before {@code avformat_open_input} and read
 * by the callbacks, which FFmpeg runs synchronously on that same thread, so no ordering is needed.
 */
final class MemoryInputDescriptor {
    /** Address of the first byte of the input. */
    static final int ADDRESS_OFFSET = 0;
    /** Number of bytes in the input. */
    static final int LENGTH_OFFSET = 8;
    /** Read cursor, 0..length. */
    static final int POSITION_OFFSET = 16;
    /** Size of the block. */
    static final int LENGTH = 24;

    private MemoryInputDescriptor() {
    }
}
