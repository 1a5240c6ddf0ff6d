package org.spdl4j.engine.source;

import java.nio.ByteBuffer;

/**
 * Where a source stands: enough to restart it exactly. A value, safe to share between threads.
 *
 * <p>{@code position} counts the items of {@code epoch} already delivered; a source restored from this state yields
 * item {@code position} (zero-based) of that epoch next. For a pipeline in INPUT order with batch size b, the state
 * after the consumer has taken batch k (one-based) is {@code withPosition(k * b)}.
 *
 * <p>Two encodings, both stable across versions of this record: text ({@link #encode()}, {@link #parse}), e.g.
 * {@code spdl4j-source/1 seed=42 epoch=3 position=1024}, and 28 bytes ({@link #toBytes()}, {@link #fromBytes}):
 * <pre>
 *  0       4            12           20           28
 *  +-------+------------+------------+------------+
 *  |version|    seed    |   epoch    |  position  |   big-endian
 *  +-------+------------+------------+------------+
 * </pre>
 *
 * @param seed     the shuffle seed the source was built with (checked on resume)
 * @param epoch    the epoch, from 0
 * @param position items of the epoch already delivered, from 0
 */
public record SourceState(long seed, long epoch, long position) {
    /** The format version written by {@link #encode()} and {@link #toBytes()}. */
    public static final int VERSION = 1;
    /** The size of {@link #toBytes()}. */
    public static final int ENCODED_LENGTH = 4 + 3 * Long.BYTES;
    private static final String PREFIX = "spdl4j-source/" + VERSION;

    /**
     * Checks the components.
     *
     * @param seed     any seed
     * @param epoch    zero or more
     * @param position zero or more
     */
    public SourceState {
        if (epoch < 0 || position < 0) {
            throw new IllegalArgumentException("epoch and position must be >= 0: " + epoch + ", " + position);
        }
    }

    /**
     * The start of a run.
     *
     * @param seed the shuffle seed
     * @return epoch 0, position 0
     */
    public static SourceState start(long seed) {
        return new SourceState(seed, 0, 0);
    }

    /**
     * The same seed and epoch at another position.
     *
     * @param newPosition items of the epoch delivered
     * @return the new state
     */
    public SourceState withPosition(long newPosition) {
        return new SourceState(seed, epoch, newPosition);
    }

    /** {@return this state as one line of text, read back by {@link #parse}} */
    public String encode() {
        return PREFIX + " seed=" + seed + " epoch=" + epoch + " position=" + position;
    }

    /**
     * Reads a state written by {@link #encode()}.
     *
     * @param text the encoded state
     * @return the state
     * @throws IllegalArgumentException when the text is not an encoded state; the message quotes it
     */
    public static SourceState parse(String text) {
        String[] parts = text.trim().split(" ");
        if (parts.length != 4 || !parts[0].equals(PREFIX)) {
            throw new IllegalArgumentException("not a " + PREFIX + " state: '" + text + "'");
        }
        try {
            return new SourceState(field(parts[1], "seed", text), field(parts[2], "epoch", text),
                    field(parts[3], "position", text));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad number in source state '" + text + "'", e);
        }
    }

    private static long field(String part, String name, String text) {
        if (!part.startsWith(name + "=")) {
            throw new IllegalArgumentException("expected '" + name + "=' in source state '" + text + "'");
        }
        return Long.parseLong(part.substring(name.length() + 1));
    }

    /** {@return this state as {@link #ENCODED_LENGTH} bytes, read back by {@link #fromBytes}} */
    public byte[] toBytes() {
        return ByteBuffer.allocate(ENCODED_LENGTH).putInt(VERSION).putLong(seed).putLong(epoch).putLong(position)
                .array();
    }

    /**
     * Reads a state written by {@link #toBytes()}.
     *
     * @param bytes the encoded state
     * @return the state
     * @throws IllegalArgumentException on a wrong length or version
     */
    public static SourceState fromBytes(byte[] bytes) {
        if (bytes.length != ENCODED_LENGTH) {
            throw new IllegalArgumentException("source state must be " + ENCODED_LENGTH + " bytes, got "
                    + bytes.length);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int version = b.getInt();
        if (version != VERSION) {
            throw new IllegalArgumentException("source state version " + version + " unknown; expected " + VERSION);
        }
        return new SourceState(b.getLong(), b.getLong(), b.getLong());
    }
}
