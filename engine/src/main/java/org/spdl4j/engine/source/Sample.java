package org.spdl4j.engine.source;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import org.spdl4j.offheap.CleanupFailures;

/**
 * One training sample as read from storage: a key, an optional integer label, where it came from, and one or more
 * named byte fields.
 *
 * <p><b>Ownership:</b> a sample owns its fields' buffers, which came from {@link #allocator()}. {@link #close()}
 * gives them back, once; after that the fields must not be read. Whoever holds the sample last (usually the decode
 * stage, after it has written pixels elsewhere) closes it. Heap samples need no close, but closing them is harmless.
 *
 * <p><b>Threading:</b> not thread-safe. A sample is handed from stage to stage through the engine's rings, whose
 * publication orders the writes before the next stage's reads; only one stage touches it at a time.
 */
public final class Sample implements AutoCloseable {
    /** The label of a sample that has none. */
    public static final int NO_LABEL = -1;

    private final String key;
    private final int label;
    private final String origin;
    private final List<SampleField> fields;
    private final SampleAllocator allocator;
    private boolean closed;

    /**
     * Creates a sample that takes ownership of the fields' buffers.
     *
     * @param key       the sample key, unique within its source ({@code "train/0001"}, a relative path, a URL)
     * @param label     the class label, or {@link #NO_LABEL}
     * @param origin    where the bytes came from, for error messages ({@code "shard-0003.tar@1536"}, a path, a URL)
     * @param fields    the fields, in the order they were read; the list is copied
     * @param allocator the allocator the fields' buffers came from, which {@link #close()} returns them to
     */
    public Sample(String key, int label, String origin, List<SampleField> fields, SampleAllocator allocator) {
        this.key = Objects.requireNonNull(key, "key");
        this.label = label;
        this.origin = Objects.requireNonNull(origin, "origin");
        this.fields = List.copyOf(fields);
        this.allocator = Objects.requireNonNull(allocator, "allocator");
    }

    /** {@return the sample key} */
    public String key() {
        return key;
    }

    /** {@return the class label, or {@link #NO_LABEL}} */
    public int label() {
        return label;
    }

    /** {@return where the bytes came from (shard and offset, path or URL)} */
    public String origin() {
        return origin;
    }

    /** {@return the fields, in read order (an unmodifiable list)} */
    public List<SampleField> fields() {
        return fields;
    }

    /** {@return the allocator the fields' buffers belong to} */
    public SampleAllocator allocator() {
        return allocator;
    }

    /**
     * Finds a field by name.
     *
     * @param name the field name, such as {@code "jpg"}
     * @return the field
     * @throws IllegalArgumentException when the sample has no such field; the message lists the fields it has
     */
    public SampleField field(String name) {
        for (SampleField f : fields) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("sample '" + key + "' from " + origin + " has no field '" + name
                + "'; it has " + fields.stream().map(SampleField::name).toList());
    }

    /**
     * Tells whether a field is present.
     *
     * @param name the field name
     * @return true when the sample has a field of that name
     */
    public boolean hasField(String name) {
        for (SampleField f : fields) {
            if (f.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** {@return the sum of the fields' lengths in bytes} */
    public long totalBytes() {
        long n = 0;
        for (SampleField f : fields) {
            n += f.length();
        }
        return n;
    }

    /**
     * Reads a small text field (such as WebDataset's {@code cls} or {@code txt}) as UTF-8. Allocates a string.
     *
     * @param name the field name
     * @return the field's text, trimmed
     */
    public String text(String name) {
        return new String(field(name).toByteArray(), StandardCharsets.UTF_8).trim();
    }

    /**
     * Returns every field buffer to the allocator, each one even when an earlier release throws (the first failure is
     * rethrown once all were tried, the others suppressed on it). Idempotent; not thread-safe (one owner closes).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        releaseAll(allocator, fields);
    }

    /**
     * Releases every field's buffer, going on past a release that throws; rethrows the first failure afterwards.
     *
     * @param allocator where the buffers came from
     * @param fields    the fields, may be {@code null}
     */
    public static void releaseAll(SampleAllocator allocator, List<SampleField> fields) {
        if (fields == null) {
            return;
        }
        CleanupFailures failures = new CleanupFailures();
        for (SampleField f : fields) {
            failures.run(() -> allocator.release(f.bytes()));
        }
        failures.rethrow();
    }

    @Override
    public String toString() {
        return "Sample[" + key + ", label=" + label + ", " + fields.size() + " fields, " + totalBytes() + " B, from "
                + origin + "]";
    }
}
