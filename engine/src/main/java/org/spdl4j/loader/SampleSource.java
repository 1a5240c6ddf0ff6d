package org.spdl4j.loader;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.FileListDataset;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.tar.ClassLabels;
import org.spdl4j.engine.source.tar.ShardCompression;
import org.spdl4j.engine.source.tar.ShardOpener;
import org.spdl4j.loader.internal.EntrySource;
import org.spdl4j.loader.internal.IndexedEntries;
import org.spdl4j.loader.internal.ReadKind;
import org.spdl4j.loader.internal.StreamedEntries;
import org.spdl4j.loader.internal.TarShardEntries;
import org.spdl4j.loader.internal.UrlListFile;

/**
 * Where a loader's samples come from: a folder, a list of paths or URLs, WebDataset tar shards (plain or
 * compressed, from files or through a {@link ShardOpener}), whole objects of an {@link ObjectStore}, or any list or
 * iterable of {@link SampleEntry}s. Lists are sampled per rank and shuffled per epoch (by the loader's seed);
 * tar shards are dealt to ranks whole (their order shuffled per epoch) and read member by member; an iterable is read
 * in its own order, sample {@code i} to rank {@code i % worldSize}.
 *
 * <p>A value: immutable, reusable for several loaders. Scanning a folder or reading a list file happens in the
 * factory, once.
 */
public final class SampleSource {
    /** Image file extensions a folder scan takes by default (case-insensitive). */
    public static final Set<String> IMAGE_EXTENSIONS = Set.of("jpg", "jpeg", "png", "webp", "bmp");
    /** Video file extensions. */
    public static final Set<String> VIDEO_EXTENSIONS = Set.of("mp4", "avi", "mkv", "webm", "mov");
    /** Audio file extensions. */
    public static final Set<String> AUDIO_EXTENSIONS = Set.of("wav", "flac", "mp3", "ogg", "m4a");

    private final EntrySource entries;

    private SampleSource(EntrySource entries) {
        this.entries = entries;
    }

    /**
     * The images of a folder: its class sub-folders ({@code root/<class>/<file>}, labelled by their sorted names),
     * or, when no sub-folder holds one, the files directly in it, unlabelled. Keys are paths relative to the root.
     *
     * @param root the folder
     * @return the source
     * @throws IllegalArgumentException when the folder holds no image
     */
    public static SampleSource folder(Path root) {
        return folder(root, IMAGE_EXTENSIONS);
    }

    /**
     * The files of a folder with the given extensions, as {@link #folder(Path)} reads images.
     *
     * @param root       the folder
     * @param extensions file extensions to take, lower case without the dot
     * @return the source
     * @throws IllegalArgumentException when the folder holds no such file; {@link UncheckedIOException} when it
     *                                  cannot be read
     */
    public static SampleSource folder(Path root, Set<String> extensions) {
        FolderDataset classes = FolderDataset.scan(root, extensions);
        FolderDataset found = classes.size() > 0 ? classes : FolderDataset.scanFlat(root, extensions);
        if (found.size() == 0) {
            throw new IllegalArgumentException(root + ": no files (" + String.join(", ",
                new java.util.TreeSet<>(extensions)) + ") in it or in class sub-folders (" + root + "/<class>/<file>)");
        }
        List<SampleEntry> list = new ArrayList<>((int) found.size());
        for (long i = 0; i < found.size(); i++) {
            FileItem f = found.get(i);
            list.add(new SampleEntry(f.key() != null ? f.key() : f.path().toString(), f.label(), f.path(), null));
        }
        return new SampleSource(new IndexedEntries(list, "folder " + root));
    }

    /**
     * A text file listing samples, one per line, optionally followed by a tab and an integer label: local paths
     * (relative ones against the list's folder), or http(s) URLs fetched asynchronously (the first non-comment line
     * decides which).
     *
     * @param list the list file
     * @return the source
     * @throws IllegalArgumentException naming the file and line of a bad entry, or when it lists nothing
     */
    public static SampleSource list(Path list) {
        if (isUrlList(list)) {
            List<SampleEntry> urls = UrlListFile.read(list);
            requireSome(urls.size(), list);
            return new SampleSource(new IndexedEntries(urls, "URL list " + list));
        }
        FileListDataset paths = FileListDataset.read(list);
        requireSome(paths.size(), list);
        List<SampleEntry> entries = new ArrayList<>((int) paths.size());
        for (long i = 0; i < paths.size(); i++) {
            FileItem f = paths.get(i);
            entries.add(new SampleEntry(f.key() != null ? f.key() : f.path().toString(), f.label(), f.path(), null));
        }
        return new SampleSource(new IndexedEntries(entries, "path list " + list));
    }

    /**
     * {@return whether {@code file} is a URL list: a regular file whose first non-empty, non-comment line is an
     * http(s) URL}
     *
     * @param file any path
     */
    public static boolean isUrlList(Path file) {
        return UrlListFile.isUrlList(file);
    }

    private static void requireSome(long n, Path list) {
        if (n == 0) {
            throw new IllegalArgumentException(list + ": lists no sample (one path or http(s) URL per line, "
                + "optionally followed by a tab and a label)");
        }
    }

    /**
     * WebDataset tar shards: a shard file, or a folder's shards in name order. Shards are dealt whole to ranks, their
     * order shuffled per epoch; the samples within a shard are read in the order written (streamed, no buffer): write
     * shards with their samples shuffled, as WebDataset advises, read several at once ({@link #interleave}), or mix
     * several shard sets ({@link #mix()}).
     * Shards are {@code .tar}, or compressed
     * {@code .tar.gz} / {@code .tgz} / {@code .tar.zst}, decompressed as they stream
     * ({@link org.spdl4j.engine.source.tar.ShardCompression}; Zstandard needs {@code com.github.luben:zstd-jni}).
     *
     * @param shardsOrFolder a shard or a folder of shards
     * @return the source
     * @throws IllegalArgumentException when there is no shard
     */
    public static SampleSource tarShards(Path shardsOrFolder) {
        List<Path> shards = shardFiles(shardsOrFolder);
        if (shards.isEmpty()) {
            throw new IllegalArgumentException(shardsOrFolder + ": no tar shard (.tar, .tar.gz, .tgz, .tar.zst)");
        }
        return tarShards(shards);
    }

    /**
     * WebDataset tar shards, in this order (the same on every rank).
     *
     * @param shards the shard files
     * @return the source
     */
    public static SampleSource tarShards(List<Path> shards) {
        return new SampleSource(new TarShardEntries(shards));
    }

    /**
     * WebDataset tar shards opened by name through {@code opener}, in this order (the same on every rank): shards of
     * an object store ({@link ObjectStore}, whose own module lists them), or any other byte streams. Compressed shards
     * are told by their names, as for files.
     *
     * @param shards the shard names, as {@code opener} takes them
     * @param opener opens one shard as a stream of its stored bytes
     * @return the source
     * @throws IllegalArgumentException when there is no shard
     */
    public static SampleSource tarShards(List<String> shards, ShardOpener opener) {
        Objects.requireNonNull(opener, "opener");
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("tar shards: the list names no shard");
        }
        return new SampleSource(new TarShardEntries(shards, opener));
    }

    /**
     * Whole objects of a store, one sample each, sampled per rank and shuffled per epoch like a folder: each read
     * asynchronously into pooled memory, {@link LoaderBuilder#readConcurrency} in flight ({@link ObjectStore#read}).
     *
     * @param store   where the objects are; the application closes it after the loaders
     * @param entries the samples, each naming its object by URI ({@link SampleEntry#uri})
     * @param what    what they are, for messages ("s3://bucket/train/")
     * @return the source
     * @throws IllegalArgumentException when the list is empty or an entry names no object
     */
    public static SampleSource objects(ObjectStore store, List<SampleEntry> entries, String what) {
        Objects.requireNonNull(store, "store");
        if (entries.isEmpty()) {
            throw new IllegalArgumentException(what + ": no object to read in " + store.describe());
        }
        return new SampleSource(new IndexedEntries(entries, store, what));
    }

    /**
     * {@return the tar shards {@code path} names: itself when it is one, a folder's (sorted) when it holds
     * shards and no images, else an empty list; shards are {@code .tar}, {@code .tar.gz}, {@code .tgz},
     * {@code .tar.zst} files}
     *
     * @param path a file or folder
     */
    public static List<Path> shardFiles(Path path) {
        if (Files.isRegularFile(path) && ShardCompression.isShard(path.getFileName().toString())) {
            return List.of(path);
        }
        if (!Files.isDirectory(path)) {
            return List.of();
        }
        try (var files = Files.list(path)) {
            return files.filter(p -> ShardCompression.isShard(p.getFileName().toString()) && Files.isRegularFile(p))
                .sorted().toList();
        } catch (java.io.IOException e) {
            throw new UncheckedIOException("cannot list " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * A list of samples (all local files or all URLs), sampled per rank and shuffled per epoch like a folder.
     *
     * @param entries the samples
     * @return the source
     * @throws IllegalArgumentException when the list is empty
     */
    public static SampleSource of(List<SampleEntry> entries) {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("a list of samples with no sample: give at least one entry");
        }
        return new SampleSource(new IndexedEntries(entries, "list of " + entries.size() + " samples"));
    }

    /**
     * Samples streamed from an iterable, in its order, iterated again for each epoch; no shuffle. All entries must
     * be of the kind of the first (local files, or URLs). For exact resume the iterable must give the same order each
     * time.
     *
     * @param entries the samples
     * @return the source
     * @throws IllegalArgumentException when the iterable is empty
     */
    public static SampleSource streamed(Iterable<SampleEntry> entries) {
        Objects.requireNonNull(entries, "entries");
        Iterator<SampleEntry> first = entries.iterator();
        if (!first.hasNext()) {
            throw new IllegalArgumentException("streamed source: the iterable has no sample");
        }
        ReadKind kind = first.next().uri() != null ? ReadKind.HTTP : ReadKind.FILES;
        return new SampleSource(new StreamedEntries(entries, kind, "streamed samples"));
    }

    /**
     * {@return a builder of a weighted mixture of sources: one loader drawing from several datasets in fixed
     * proportions, exactly resumable ({@link SampleMix})}
     */
    public static SampleMix mix() {
        return new SampleMix();
    }

    /** A source over what {@link SampleMix} built. */
    static SampleSource wrap(EntrySource entries) {
        return new SampleSource(entries);
    }

    /**
     * {@return these tar shards with a class list: a {@code .cls} member holding a class name is labelled by the
     * name's index in {@code classes}, the same in every shard, rank and resumed run (without a list, names are
     * labelled in the order this process first sees them, which differs between ranks and resumed runs)}
     *
     * @param classes the class names, each once; label i is {@code classes.get(i)}
     * @throws IllegalStateException    when this source is not tar shards (a folder's classes are its sub-folders, a
     *                                  list's labels are written in it)
     * @throws IllegalArgumentException when a name is empty or given twice
     */
    public SampleSource classes(List<String> classes) {
        return withLabels(ClassLabels.of(classes));
    }

    /**
     * {@return these tar shards with the class list of a file: one class name per line, the first is label 0 (blank
     * lines and {@code #} lines skipped); see {@link #classes(List)}}
     *
     * @param classList the file
     * @throws IllegalStateException    when this source is not tar shards
     * @throws UncheckedIOException     when the file cannot be read
     * @throws IllegalArgumentException when it holds no class, or one twice
     */
    public SampleSource classes(Path classList) {
        return withLabels(ClassLabels.read(classList));
    }

    /**
     * {@return these tar shards read {@code n} at a time by each rank, their samples taken in turn: shard {@code k} of
     * a rank's epoch order goes to lane {@code k mod n}, each lane reads its shards one after another, and the lanes
     * give one sample each, round-robin} Consecutive samples then come from {@code n} shards, so a batch of shards
     * written in class order holds {@code n} shards' classes, not one; {@code n} shards are open at a time. Exact
     * resume replays the turns by headers only.
     *
     * @param n shards read at once per rank, at least 1 (1, the default: one after another)
     * @throws IllegalStateException    when this source is not tar shards
     * @throws IllegalArgumentException when {@code n < 1}
     */
    public SampleSource interleave(int n) {
        if (!(entries instanceof TarShardEntries tar)) {
            throw new IllegalStateException("interleave reads several tar shards at once; " + describe()
                + " is not tar shards (lists are shuffled whole; several sources mix with SampleSource.mix())");
        }
        return new SampleSource(tar.interleaving(n));
    }

    private SampleSource withLabels(ClassLabels labels) {
        if (!(entries instanceof TarShardEntries tar)) {
            throw new IllegalStateException("a class list labels the .cls members of tar shards; " + describe()
                + " has none (a folder's classes are its sub-folders, a list's labels are written in it)");
        }
        return new SampleSource(tar.withClassLabels(labels));
    }

    /** {@return the samples of the whole dataset (every rank's) when known before reading (folders, lists), else -1} */
    public long size() {
        return entries.epochLength(RankInfo.SINGLE);
    }

    /**
     * {@return the samples one rank loads per epoch when known before reading (folders, lists: the remainder is
     * dropped so every rank has as many), else -1 (tar shards, streamed samples)}
     *
     * @param rank the rank
     */
    public long samplesPerEpoch(RankInfo rank) {
        return entries.epochLength(rank);
    }

    /** {@return what the samples are, for messages} */
    public String describe() {
        return entries.describe();
    }

    /** The internal side, for the loader. */
    EntrySource entries() {
        return entries;
    }

    @Override
    public String toString() {
        return describe();
    }
}
