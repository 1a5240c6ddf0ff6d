package org.spdl4j.engine.source;

import java.nio.ByteBuffer;

/**
 * One named part of a sample: a WebDataset member ({@code "jpg"}, {@code "cls"}, {@code "json"}), or the single
 * field of a file or HTTP object.
 *
 * <p>The bytes are {@code bytes} from position 0 to its limit. The buffer is owned by the enclosing {@link Sample};
 * read it with absolute gets or through {@link #view()} and never keep it after the sample is closed.
 *
 * @param name  the field name: the member's extension without the leading dot ({@code "jpg"}, {@code "seg.png"})
 * @param bytes the field's bytes, position 0, limit = length
 */
public record SampleField(String name, ByteBuffer bytes) {
    /** {@return the number of bytes in this field} */
    public int length() {
        return bytes.limit();
    }

    /** {@return a read-only view of the bytes (allocates a small view object; the bytes are not copied)} */
    public ByteBuffer view() {
        return bytes.asReadOnlyBuffer().position(0);
    }

    /** {@return a fresh copy of the bytes on the heap (allocates; meant for tests and small fields such as labels)} */
    public byte[] toByteArray() {
        byte[] out = new byte[bytes.limit()];
        bytes.get(0, out);
        return out;
    }
}
