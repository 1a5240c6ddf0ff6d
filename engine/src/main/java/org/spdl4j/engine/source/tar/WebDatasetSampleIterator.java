package org.spdl4j.engine.source.tar;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

import org.spdl4j.engine.source.CloseableIterator;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.SampleField;

/**
 * The samples of one tar shard, WebDataset style: consecutive members sharing a key make one sample
 * ({@code train/0001.jpg} + {@code train/0001.cls} give key {@code train/0001}, fields {@code jpg} and {@code cls}).
 * The key ends at the first dot of the member's file name; a member without that form (no extension, or a hidden
 * name such as macOS's {@code ._0001.jpg}) is skipped, as WebDataset does (logged once per shard); a field twice in
 * one sample is an error. A {@code cls} field becomes the sample's label: an integer as it is, a class name through
 * the {@link ClassLabels} given (by a class list, or in the order names are first seen); one that gives no label
 * (not UTF-8 text, too long, a name not in the list) is logged once per shard, naming the shard and the member.
 *
 * <p><b>Errors:</b> a {@link TarFormatException} from the reader ends the iteration: samples before it have been
 * delivered, the sample being assembled is released (not delivered: it may be incomplete) and the exception, naming
 * shard and offset, is thrown from {@code hasNext}/{@code next}. <b>Allocation:</b> one buffer per member from the
 * {@link SampleAllocator} (the member's bytes are read straight into it), plus the small sample objects.
 * <b>Threading:</b> single-threaded. <b>Ownership:</b> owns the reader (closed at the end or by {@link #close()});
 * delivered samples belong to the caller.
 */
public final class WebDatasetSampleIterator implements CloseableIterator<Sample> {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WebDatasetSampleIterator.class);
    /** Members skipped for not being named {@code <key>.<ext>}. */
    private long skippedMembers;
    private final TarStreamReader reader;
    private final SampleAllocator allocator;
    private TarMember lookahead;
    private Sample next;
    private TarFormatException deferred;
    private boolean done;
    /** Whether a {@code cls} that gives no label was reported for this shard (once per shard, not per sample). */
    private boolean warnedLabel;
    private final ClassLabels classLabels;

    /**
     * Creates the iterator.
     *
     * @param reader    the shard's reader, at its start; now owned by this iterator
     * @param allocator where member bytes go
     */
    public WebDatasetSampleIterator(TarStreamReader reader, SampleAllocator allocator) {
        this(reader, allocator, ClassLabels.seen());
    }

    /**
     * Creates the iterator.
     *
     * @param reader    the shard's reader, at its start; now owned by this iterator
     * @param allocator where member bytes go
     * @param labels    how a {@code cls} member's class name becomes a label (share one across a dataset's shards)
     */
    public WebDatasetSampleIterator(TarStreamReader reader, SampleAllocator allocator, ClassLabels labels) {
        this.reader = reader;
        this.allocator = allocator;
        this.classLabels = java.util.Objects.requireNonNull(labels, "labels");
    }

    @Override
    public boolean hasNext() {
        if (next == null && deferred != null) {
            TarFormatException e = deferred;
            deferred = null;
            throw e;
        }
        if (next == null && !done) {
            next = assemble(true);
        }
        return next != null;
    }

    @Override
    public Sample next() {
        if (!hasNext()) {
            throw new NoSuchElementException("shard '" + reader.shard() + "' has no more samples");
        }
        Sample s = next;
        next = null;
        return s;
    }

    /**
     * Skips samples by reading their headers only (member data is skipped; seeks on a file).
     *
     * @param n the number of samples to skip
     * @return the number skipped, less than {@code n} when the shard ended first
     */
    public long skip(long n) {
        long skipped = 0;
        if (next != null && n > 0) {
            next.close();
            next = null;
            skipped++;
        }
        while (skipped < n && !done && assemble(false) != null) {
            skipped++;
        }
        return skipped;
    }

    /**
     * Reads the members of one sample; with {@code read} false only counts them, with the same checks (a repeated
     * field, a member too large), so that skipping passes over exactly the samples reading would deliver (resume
     * counts on it). Returns null at the end.
     */
    private Sample assemble(boolean read) {
        List<SampleField> fields = read ? new ArrayList<>(4) : null;
        // The fields seen, for the repeat check: the read fields themselves when reading (no list more per sample on
        // the read path), their names when only counting.
        List<String> names = read ? null : new ArrayList<>(4);
        String key = null;
        long start = -1;
        try {
            while (true) {
                TarMember m = lookahead != null ? lookahead : reader.next();
                lookahead = null;
                if (m == null) {
                    close();
                    break;
                }
                int dot = MemberNames.keyEnd(m.name());
                if (dot < 0) {
                    // Not a sample's member (a README, a hidden file, macOS's "._x.jpg" metadata): skipped, as
                    // WebDataset does; its bytes are skipped by the next header read.
                    skippedMembers++;
                    if (skippedMembers == 1) {
                        LOG.warn("tar shard '{}': member '{}' has no <key>.<ext> form; skipped (and any more such)",
                                reader.shard(), m.name());
                    }
                    continue;
                }
                String k = m.name().substring(0, dot);
                if (key == null) {
                    key = k;
                    start = m.headerOffset();
                } else if (!k.equals(key)) {
                    lookahead = m;
                    break;
                }
                String ext = m.name().substring(dot + 1);
                checkField(m, ext, fields, names);
                if (read) {
                    fields.add(readField(m, ext));
                } else {
                    names.add(ext);
                }
            }
        } catch (TarFormatException e) {
            if (key != null && e.member() != null && !key.equals(keyOf(e.member()))) {
                // the bad member's header was read whole and belongs to a later sample: this one is complete
                close();
                deferred = e; // after close(), which drops a pending error (a closed iterator has ended)
                return read ? new Sample(key, label(fields, key), reader.shard() + "@" + start, fields, allocator)
                        : Skipped.INSTANCE;
            }
            release(fields);
            close();
            if (key == null) {
                throw e;
            }
            throw new TarFormatException(e.shard(), e.offset(), e.detail() + "; sample '" + key + "' (from offset "
                    + start + ") may be incomplete and was not delivered; the samples before it were", e);
        } catch (RuntimeException e) {
            release(fields);
            close();
            throw e;
        }
        if (key == null) {
            return null;
        }
        return read ? new Sample(key, label(fields, key), reader.shard() + "@" + start, fields, allocator)
                : Skipped.INSTANCE;
    }

    /**
     * The key a rejected member's raw name would have once cleaned as accepted names are ({@code ./} and leading
     * slashes off), so that {@code /0001.cls} after {@code 0001.jpg} counts as the same sample's (which is then
     * incomplete), not as a later one's.
     */
    private static String keyOf(String name) {
        int from = 0; // one pass, one substring: a crafted name of a million slashes must not cost a million copies
        while (from < name.length()) {
            if (name.startsWith("./", from)) {
                from += 2;
            } else if (name.charAt(from) == '/' || name.charAt(from) == '\\') {
                from++;
            } else {
                break;
            }
        }
        String n = name.substring(from);
        int dot = MemberNames.keyEnd(n);
        return dot < 0 ? n : n.substring(0, dot);
    }

    /** The checks a member passes before it is read, or counted by a skip: a new field, a size one buffer holds. */
    private void checkField(TarMember m, String ext, List<SampleField> fields, List<String> names) {
        if (names != null ? names.contains(ext) : hasField(fields, ext)) {
            throw new TarFormatException(reader.shard(), m.headerOffset(), "member '" + m.name()
                    + "' repeats field '" + ext + "' of its sample");
        }
        if (m.size() > Integer.MAX_VALUE - 8) {
            throw new TarFormatException(reader.shard(), m.headerOffset(), "member '" + m.name() + "' of " + m.size()
                    + " bytes is too large for one sample field");
        }
    }

    private static boolean hasField(List<SampleField> fields, String ext) {
        for (SampleField f : fields) {
            if (f.name().equals(ext)) {
                return true;
            }
        }
        return false;
    }

    private SampleField readField(TarMember m, String ext) {
        ByteBuffer buffer;
        try {
            buffer = allocator.allocate((int) m.size());
        } catch (RuntimeException e) { // a pool too small or exhausted: say where in which shard, keep the cause
            throw new IllegalStateException("tar shard '" + reader.shard() + "', member '" + m.name() + "' ("
                    + m.size() + " B, header at offset " + m.headerOffset() + "): no buffer for it: " + e.getMessage(),
                    e);
        }
        try {
            buffer.limit((int) m.size());
            reader.readData(buffer);
            buffer.flip();
            return new SampleField(ext, buffer);
        } catch (RuntimeException e) {
            allocator.release(buffer);
            throw e;
        }
    }

    private int label(List<SampleField> fields, String key) {
        for (SampleField f : fields) {
            if (f.name().equals("cls")) {
                String text = f.length() <= ClassLabels.MAX_CLS_BYTES ? utf8(f) : null;
                int label = text == null ? Sample.NO_LABEL : classLabels.label(text);
                if (label == Sample.NO_LABEL && !warnedLabel) { // said once per shard, not per sample
                    warnedLabel = true;
                    LOG.warn("tar shard '{}': member '{}.cls' ({}) gives no label, so the sample gets -1 (and any more"
                            + " such in this shard); {}", reader.shard(), key, text == null ? f.length() + " bytes, not"
                            + " UTF-8 text of at most " + ClassLabels.MAX_CLS_BYTES + " bytes" : "'" + text + "'",
                            classLabels.hasList() ? "add the class to the class list, or fix the member"
                                    : "write a class name or index into it");
                }
                return label;
            }
        }
        return Sample.NO_LABEL;
    }

    /** {@return a member's text, trimmed, or {@code null} when it is not UTF-8} */
    private static String utf8(SampleField f) {
        try {
            return java.nio.charset.StandardCharsets.UTF_8.newDecoder().decode(f.view()).toString().trim();
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    private void release(List<SampleField> fields) {
        Sample.releaseAll(allocator, fields); // each one, even past a release that throws
    }

    /**
     * Closes the shard. Idempotent; an undelivered look-ahead sample is released, and an error not yet thrown is
     * dropped: afterwards {@code hasNext()} is false.
     */
    @Override
    public void close() {
        deferred = null;
        if (next != null) {
            next.close();
            next = null;
        }
        if (!done) {
            done = true;
            reader.close();
        }
    }

    /** Marker returned by a counting pass; never delivered. */
    private static final class Skipped {
        static final Sample INSTANCE = new Sample("", Sample.NO_LABEL, "skipped", List.of(), SampleAllocator.HEAP);
    }
}
