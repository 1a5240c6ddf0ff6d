package org.spdl4j.engine.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A folder of class sub-folders, ImageNet style: {@code root/<class>/**&#47;<file>}; each sub-folder is a class,
 * labelled by its rank in the sorted folder names (0, 1, ...). Or, from {@link #scanFlat}, a flat folder: the files
 * directly in {@code root}, one unlabelled class ({@link Sample#NO_LABEL}, no class names).
 *
 * <p>The walk is deterministic: class folders sorted by name, files within a class sorted by relative path (by
 * {@link String#compareTo}, so the order does not depend on the file system or locale). Hidden entries (names
 * starting with {@code .}) and, in {@link #scan}, files directly under the root are skipped. An optional set of
 * extensions keeps only matching files (case-insensitive).
 *
 * <p><b>Cost:</b> the walk happens once, in {@link #scan}, and blocks on the file system; class folders are walked
 * up to {@value #SCAN_THREADS} at once. The dataset keeps one
 * relative path string and one label per file (about 100 bytes per file; 1.3 M ImageNet files take ~130 MB).
 * <b>Threading:</b> immutable and thread-safe once built.
 */
public final class FolderDataset implements IndexedDataset<FileItem> {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FolderDataset.class);
    /** The most class folders {@link #scan} walks at once. */
    static final int SCAN_THREADS = 8;
    private final Path root;
    private final List<String> classNames;
    private final String[] relativePaths;
    private final int[] labels;

    private FolderDataset(Path root, List<String> classNames, String[] relativePaths, int[] labels) {
        this.root = root;
        this.classNames = classNames;
        this.relativePaths = relativePaths;
        this.labels = labels;
    }

    /**
     * Walks a folder.
     *
     * @param root       the dataset root, holding one sub-folder per class
     * @param extensions file extensions to keep, without dots (e.g. {@code "jpg", "jpeg"}); empty keeps every file
     * @return the dataset
     * @throws UncheckedIOException when the folder cannot be read; the message names the path
     */
    public static FolderDataset scan(Path root, Set<String> extensions) {
        Set<String> exts = extensions.stream().map(e -> e.toLowerCase(Locale.ROOT)).collect(
                java.util.stream.Collectors.toUnmodifiableSet());
        requireFolder(root);
        List<String> classes = new ArrayList<>();
        try (Stream<Path> top = Files.list(root)) {
            top.filter(Files::isDirectory).map(p -> p.getFileName().toString()).filter(n -> !n.startsWith("."))
                    .sorted().forEach(classes::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot walk dataset folder " + root + ": " + e.getMessage(), e);
        } catch (UncheckedIOException e) { // thrown by the listing's stream: an unreadable entry
            throw new UncheckedIOException("cannot walk dataset folder " + root + ": " + e.getCause(), e.getCause());
        }
        java.util.Queue<String> notFiles = new java.util.concurrent.ConcurrentLinkedQueue<>();
        List<List<String>> perClass = walkClasses(root, classes, exts, notFiles);
        warnNotFiles(root, notFiles);
        List<String> paths = new ArrayList<>();
        List<Integer> labelList = new ArrayList<>();
        for (int label = 0; label < classes.size(); label++) {
            for (String f : perClass.get(label)) {
                paths.add(f);
                labelList.add(label);
            }
        }
        int[] labels = labelList.stream().mapToInt(Integer::intValue).toArray();
        return new FolderDataset(root, List.copyOf(classes), paths.toArray(String[]::new), labels);
    }

    /** Fails with a message that says what is wrong when {@code root} is no folder. */
    private static void requireFolder(Path root) {
        if (!Files.exists(root)) {
            throw new UncheckedIOException("dataset folder " + root + ": no such folder",
                    new java.nio.file.NoSuchFileException(root.toString()));
        }
        if (!Files.isDirectory(root)) {
            throw new UncheckedIOException("dataset folder " + root + ": not a folder (a list of paths is a .txt file;"
                    + " tar shards are read as shards)", new java.nio.file.NotDirectoryException(root.toString()));
        }
    }

    /** One warning naming what a scan left out because it was not a regular file (the first few of them). */
    private static void warnNotFiles(Path root, java.util.Queue<String> notFiles) {
        if (notFiles.isEmpty()) {
            return;
        }
        List<String> sorted = notFiles.stream().sorted().toList();
        LOG.warn("dataset folder {}: {} entr{} left out, not regular files: {}{}", root, sorted.size(),
                sorted.size() == 1 ? "y" : "ies", String.join(", ", sorted.subList(0, Math.min(5, sorted.size()))),
                sorted.size() > 5 ? ", ..." : "");
    }

    /**
     * Walks the class folders, several at once: a walk waits on the file system (a stat per entry; on a network file
     * system a round trip each), and ImageNet's 1,000 class folders are independent. Up to
     * {@link #SCAN_THREADS} platform threads ({@code spdl4j-folder-scan-N}), which end with the scan; the result is
     * in class order whatever order the walks finish in. The first failure in class order is thrown once every walk
     * has ended, with the message a sequential walk gives.
     */
    private static List<List<String>> walkClasses(Path root, List<String> classes, Set<String> exts,
                                                  java.util.Queue<String> notFiles) {
        int threads = Math.min(classes.size(), SCAN_THREADS);
        if (threads <= 1) {
            List<List<String>> one = new ArrayList<>();
            for (String c : classes) {
                one.add(walkClass(root, c, exts, notFiles));
            }
            return one;
        }
        java.util.concurrent.atomic.AtomicInteger names = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "spdl4j-folder-scan-" + names.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
        try {
            List<java.util.concurrent.Future<List<String>>> walks = new ArrayList<>(classes.size());
            for (String c : classes) {
                walks.add(pool.submit(() -> walkClass(root, c, exts, notFiles)));
            }
            List<List<String>> out = new ArrayList<>(classes.size());
            RuntimeException first = null;
            for (java.util.concurrent.Future<List<String>> w : walks) {
                try {
                    out.add(w.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    if (first == null) {
                        first = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new UncheckedIOException("interrupted while walking dataset folder " + root,
                            new java.io.InterruptedIOException());
                }
            }
            if (first != null) {
                throw first;
            }
            return out;
        } finally {
            pool.shutdownNow(); // after an interrupt the walks still running are abandoned: they end on their own
        }
    }

    /**
     * The kept files of one class folder, sorted; links followed. Entries named as kept files that are not regular
     * files (a link to nothing, a FIFO, a device) go to {@code notFiles}, for one warning.
     */
    private static List<String> walkClass(Path root, String className, Set<String> exts,
                                          java.util.Queue<String> notFiles) {
        Path dir = root.resolve(className);
        // Links followed (a subset made of symlinks to class folders keeps its files); a link cycle fails the walk
        // with FileSystemLoopException, named below. find, not walk + isRegularFile: the walk's own attributes
        // decide, one stat per entry, not two (a million-file folder lists in half the system calls).
        try (Stream<Path> walk = Files.find(dir, Integer.MAX_VALUE, (p, attrs) -> {
                    if (attrs.isRegularFile()) {
                        return true;
                    }
                    String name = p.getFileName().toString();
                    if (!attrs.isDirectory() && !name.startsWith(".") && keep(name, exts)) {
                        notFiles.add(relative(root, p) + (attrs.isSymbolicLink() ? " (a link to nothing)"
                                : " (not a regular file: a FIFO, socket or device)"));
                    }
                    return false;
                }, java.nio.file.FileVisitOption.FOLLOW_LINKS)) {
            return walk.map(p -> relative(root, p)).filter(rel -> keep(rel, exts) && decodable(root, rel)).sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot walk dataset folder " + root + ": " + e.getMessage(), e);
        } catch (UncheckedIOException e) { // thrown by the walk's stream: an unreadable folder, a link cycle
            throw new UncheckedIOException("cannot walk dataset folder " + root + ": " + e.getCause(), e.getCause());
        }
    }

    /**
     * Lists a flat folder: the files directly in {@code root} (sub-folders are not entered), sorted by name, each
     * keyed by its name and unlabelled ({@link Sample#NO_LABEL}); {@link #classNames()} is empty.
     *
     * @param root       the folder holding the files
     * @param extensions file extensions to keep, without dots; empty keeps every file
     * @return the dataset
     * @throws UncheckedIOException when the folder cannot be read; the message names the path
     */
    public static FolderDataset scanFlat(Path root, Set<String> extensions) {
        Set<String> exts = extensions.stream().map(e -> e.toLowerCase(Locale.ROOT)).collect(
                java.util.stream.Collectors.toUnmodifiableSet());
        requireFolder(root);
        String[] names;
        java.util.Queue<String> notFiles = new java.util.concurrent.ConcurrentLinkedQueue<>();
        try (Stream<Path> top = Files.list(root)) {
            names = top.filter(p -> {
                        if (Files.isRegularFile(p)) {
                            return true;
                        }
                        String n = p.getFileName().toString();
                        if (!Files.isDirectory(p) && !n.startsWith(".") && keep(n, exts)) {
                            notFiles.add(n + (Files.isSymbolicLink(p) ? " (a link to nothing)"
                                    : " (not a regular file: a FIFO, socket or device)"));
                        }
                        return false;
                    }).map(p -> p.getFileName().toString())
                    .filter(n -> keep(n, exts) && decodable(root, n)).sorted().toArray(String[]::new);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list dataset folder " + root + ": " + e.getMessage(), e);
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException("cannot list dataset folder " + root + ": " + e.getCause(), e.getCause());
        }
        warnNotFiles(root, notFiles);
        int[] labels = new int[names.length];
        java.util.Arrays.fill(labels, Sample.NO_LABEL);
        return new FolderDataset(root, List.of(), names, labels);
    }

    private static String relative(Path root, Path p) {
        return root.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
    }

    /**
     * Whether a file's name survives this JVM's file-name charset: without a UTF-8 locale (LANG unset: the JVM then
     * decodes names as ASCII), a name such as {@code café.jpg} reads back as {@code caf??.jpg}, which names no file.
     * Such a file is skipped with a warning that says how to read it, rather than failing the whole dataset.
     */
    private static boolean decodable(Path root, String rel) {
        try {
            root.resolve(rel);
            return true;
        } catch (java.nio.file.InvalidPathException e) {
            LOG.warn("dataset folder {}: skipped '{}': its name cannot be decoded in this JVM's file-name charset "
                    + "({}); run with a UTF-8 locale (e.g. LC_ALL=C.UTF-8)", root, rel,
                    System.getProperty("sun.jnu.encoding"));
            return false;
        }
    }

    private static boolean keep(String rel, Set<String> exts) {
        for (String part : rel.split("/")) {
            if (part.startsWith(".")) {
                return false;
            }
        }
        if (exts.isEmpty()) {
            return true;
        }
        int dot = rel.lastIndexOf('.');
        return dot >= 0 && exts.contains(rel.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    /** {@return the class names, index = label; empty for a flat folder} */
    public List<String> classNames() {
        return classNames;
    }

    /** {@return the dataset root} */
    public Path root() {
        return root;
    }

    @Override
    public long size() {
        return relativePaths.length;
    }

    /** {@inheritDoc} Allocates the {@link FileItem} and its {@link Path}. */
    @Override
    public FileItem get(long index) {
        int i = java.util.Objects.checkIndex((int) Math.min(index, Integer.MAX_VALUE), relativePaths.length);
        return new FileItem(root.resolve(relativePaths[i]), relativePaths[i], labels[i]);
    }
}
