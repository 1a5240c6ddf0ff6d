package org.spdl4j.loader.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.spdl4j.engine.source.CloseableIterator;
import org.spdl4j.engine.source.EpochSource;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.RemainderPolicy;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.SampleField;
import org.spdl4j.engine.source.tar.ClassLabels;
import org.spdl4j.engine.source.tar.ShardOpener;
import org.spdl4j.engine.source.tar.WebDatasetSource;

/**
 * WebDataset tar shards: whole shards dealt to ranks per epoch (their order shuffled by seed and epoch when asked),
 * each streamed member by member on the source thread straight into pooled memory. A sample's key is
 * {@code shard@member}; its label is its {@code cls} member (an integer, or a class name by the {@link ClassLabels}
 * given: a class list, or by default the order names are first seen); the member decoded is the one whose extension comes first
 * in {@link #MEDIA_FIELDS}, else the first that is not a text member ({@link #TEXT_FIELDS}).
 *
 * <p><b>Bad shards:</b> a shard that cannot be opened or read to its end (truncated, corrupt) is logged, counted in the
 * source's {@code failed} column and skipped from the fault on; the run goes on with the next shard.
 *
 * <p>Shards named {@code .tar.gz}, {@code .tgz} or {@code .tar.zst} are decompressed as they stream
 * ({@link org.spdl4j.engine.source.tar.ShardCompression}).
 *
 * <p><b>Threading:</b> immutable; cursors on the source thread. <b>Resume:</b> opening at a position skips whole
 * samples by their headers (seeking over data in plain shards whose channel can seek, reading through the rest).
 */
public final class TarShardEntries implements EntrySource {
    /** Member extensions taken as the sample's media, in this order of preference. */
    public static final List<String> MEDIA_FIELDS = List.of("jpg", "jpeg", "png", "webp", "bmp", "mp4", "avi", "mkv",
        "webm", "mov", "wav", "flac", "mp3", "ogg", "m4a", "bytes");
    private static final Set<String> MEDIA = Set.copyOf(MEDIA_FIELDS);
    /** Members that describe a sample rather than hold it: never decoded. */
    public static final Set<String> TEXT_FIELDS = Set.of("cls", "txt", "json", "label", "key");

    private final List<String> shards;
    private final ShardOpener opener;
    private final String description;
    private final ClassLabels classLabels;
    /** {@link #fingerprint()} once computed, else 0 (races compute the same value). */
    private volatile long fingerprint;
    /** Shards of a rank read at once, their samples in turn (WebDatasetSource#interleaving); 1: one at a time. */
    private final int lanes;

    /**
     * Creates the source of local shard files; class names in {@code cls} members are labelled in the order first
     * seen.
     *
     * @param shards the shard files, in a fixed order (the same on every rank)
     */
    public TarShardEntries(List<Path> shards) {
        this(shards.stream().map(Path::toString).toList(), ShardOpener.LOCAL_FILES);
    }

    /**
     * Creates the source; class names in {@code cls} members are labelled in the order first seen.
     *
     * @param shards the shard names, in a fixed order (the same on every rank)
     * @param opener opens a shard by name (local files, an object store)
     */
    public TarShardEntries(List<String> shards, ShardOpener opener) {
        this(List.copyOf(shards), opener, "tar shards (" + shards.size()
            + (shards.isEmpty() ? "" : ", first " + shards.get(0)) + ")", ClassLabels.seen(), 1);
    }

    private TarShardEntries(List<String> shards, ShardOpener opener, String description, ClassLabels classLabels,
                            int lanes) {
        this.shards = shards;
        this.opener = opener;
        this.description = description;
        this.classLabels = classLabels;
        this.lanes = lanes;
    }

    /**
     * {@return these shards, their class names labelled by {@code labels}}
     *
     * @param labels a class list's labels, or the names in the order seen
     */
    public TarShardEntries withClassLabels(ClassLabels labels) {
        return new TarShardEntries(shards, opener, description, labels, lanes);
    }

    /**
     * {@return these shards read {@code n} at a time per rank, their samples taken in turn (see
     * {@link WebDatasetSource#interleaving})}
     *
     * @param n shards open at once, at least 1
     */
    public TarShardEntries interleaving(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("shards read at once must be >= 1, got " + n);
        }
        return new TarShardEntries(shards, opener, description + (n > 1 ? ", " + n + " read at once" : ""),
            classLabels, n);
    }

    /**
     * {@return these shards with a deadline on opening each and on every read call: past it the shard fails, named,
     * from there on (the samples before are kept) and the next shard is read}
     *
     * @param deadline the longest an open or one read may block
     */
    @Override
    public TarShardEntries withReadDeadline(Duration deadline) {
        return new TarShardEntries(shards, StallGuard.guard(opener, deadline), description, classLabels, lanes);
    }

    @Override
    public ReadKind readKind() {
        return ReadKind.INLINE;
    }

    @Override
    public long epochLength(RankInfo rank) {
        return UNKNOWN_LENGTH;
    }

    @Override
    public EntryCursor open(long epoch, long from, RankInfo rank, long seed, boolean shuffle, SampleAllocator bytes) {
        WebDatasetSource source = new WebDatasetSource(shards, opener, rank, seed, shuffle,
            RemainderPolicy.PAD, bytes, EpochSource.UNKNOWN_LENGTH).skippingBadShards().withClassLabels(classLabels)
            .interleaving(lanes);
        CloseableIterator<Sample> it = source.open(epoch, from);
        return new EntryCursor() {
            @Override
            public boolean next(LoaderItem item) {
                if (!it.hasNext()) {
                    return false;
                }
                Sample s = it.next();
                String origin = s.origin();
                int at = origin.lastIndexOf('@');
                item.key = (at < 0 ? origin : origin.substring(0, at)) + "@" + s.key();
                item.label = s.label();
                item.sample = s;
                item.field = mediaField(s);
                return true;
            }

            @Override
            public boolean skip() {
                if (!it.hasNext()) {
                    return false;
                }
                it.next().close();
                return true;
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }

    /** The member to decode, or null when there is none (the decode then fails naming the sample's members). */
    private static SampleField mediaField(Sample s) {
        SampleField best = null;
        SampleField other = null;
        int bestRank = Integer.MAX_VALUE;
        for (SampleField f : s.fields()) {
            String name = f.name();
            int dot = name.lastIndexOf('.');
            String ext = dot < 0 ? name : name.substring(dot + 1);
            if (MEDIA.contains(ext)) {
                int r = MEDIA_FIELDS.indexOf(ext);
                if (r < bestRank) {
                    best = f;
                    bestRank = r;
                }
            } else if (other == null && !TEXT_FIELDS.contains(ext)) {
                other = f;
            }
        }
        return best != null ? best : other;
    }

    /**
     * {@return the shards' fingerprint: their names and, for local files, their sizes (the samples in them are known
     * only once read; a shard rewritten with other samples almost always changes size)}
     */
    @Override
    public long fingerprint() {
        long cached = fingerprint;
        if (cached != 0) {
            return cached; // one stat per shard per source, not per checkpoint
        }
        SourceFingerprint fp = new SourceFingerprint();
        for (String shard : shards) {
            fp.add(shard);
            if (opener == ShardOpener.LOCAL_FILES) {
                try {
                    fp.add(java.nio.file.Files.size(java.nio.file.Path.of(shard)));
                } catch (java.io.IOException | RuntimeException e) {
                    fp.add(-1); // unreadable now: the run will say so when it opens the shard
                }
            }
        }
        fingerprint = fp.add(lanes).value(); // lanes change the order, so the positions
        return fingerprint;
    }

    @Override
    public String describe() {
        return description;
    }
}
