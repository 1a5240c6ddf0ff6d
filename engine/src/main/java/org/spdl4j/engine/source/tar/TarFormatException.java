package org.spdl4j.engine.source.tar;

import java.io.Serial;

/**
 * A tar shard that cannot be read as a tar: truncated, corrupt header, a member name that escapes the archive, or a
 * member that does not fit the WebDataset convention. Names the shard and the byte offset where the problem is.
 *
 * <p>Samples read before the problem have been delivered; the shard's remaining samples are not. What to do: re-copy
 * or regenerate the shard (truncated, corrupt), or fix the writer (escaping names).
 */
public final class TarFormatException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;
    /** The shard, as named by its source. */
    private final String shard;
    /** The byte offset in the shard. */
    private final long offset;
    /** What is wrong. */
    private final String detail;
    /** The member the problem is about, when its header was read whole; else null. */
    private final String member;

    /**
     * Creates the exception.
     *
     * @param shard  the shard name
     * @param offset the byte offset of the problem
     * @param what   what is wrong
     */
    public TarFormatException(String shard, long offset, String what) {
        this(shard, offset, what, null);
    }

    /**
     * Creates the exception with a cause.
     *
     * @param shard  the shard name
     * @param offset the byte offset of the problem
     * @param what   what is wrong
     * @param cause  the underlying exception, or null
     */
    public TarFormatException(String shard, long offset, String what, Throwable cause) {
        this(shard, offset, what, null, cause);
    }

    /**
     * Creates the exception about a member whose header was read whole (a rejected name).
     *
     * @param shard  the shard name
     * @param offset the byte offset of the problem
     * @param what   what is wrong
     * @param member the member's name as written in the shard, or null
     * @param cause  the underlying exception, or null
     */
    public TarFormatException(String shard, long offset, String what, String member, Throwable cause) {
        super("tar shard '" + shard + "' at offset " + offset + ": " + what, cause);
        this.shard = shard;
        this.offset = offset;
        this.detail = what;
        this.member = member;
    }

    /** {@return the member the problem is about when its header was read whole, else null} */
    public String member() {
        return member;
    }

    /** {@return what is wrong, without the shard and offset} */
    public String detail() {
        return detail;
    }

    /** {@return the shard name} */
    public String shard() {
        return shard;
    }

    /** {@return the byte offset of the problem} */
    public long offset() {
        return offset;
    }
}
