package org.spdl4j.engine.source.tar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a WebDataset sample's {@code .cls} member becomes its label. A {@code .cls} holding an integer is that label.
 * One holding a class name (e.g. {@code class00}) is labelled:
 * <ul>
 *   <li>with a class list ({@link #of(List)}, {@link #read(Path)}): by the name's index in the list, the same in
 *       every shard, rank and run; a name not in the list has no label;</li>
 *   <li>without one ({@link #seen()}): by the order in which names are first seen, 0, 1, 2, ... That order is the
 *       order this process reads the shards in, so it is stable for one run with the same seed and rank, but not
 *       across ranks (each reads other shards), nor for a run resumed mid-epoch, nor when a name first appears in a
 *       shard read later. For labels that are exactly the same everywhere, give the class list.</li>
 * </ul>
 *
 * <p><b>Threading:</b> thread-safe (the names seen are kept under a lock, taken once per labelled sample).
 */
public final class ClassLabels {
    /** The longest {@code .cls} member read as a label, in bytes; a longer one has no label. */
    public static final int MAX_CLS_BYTES = 256;

    /** The fixed list, or null for names in the order seen. */
    private final List<String> classes;
    private final Map<String, Integer> index = new HashMap<>();

    private ClassLabels(List<String> classes) {
        this.classes = classes;
        if (classes != null) {
            for (int i = 0; i < classes.size(); i++) {
                String name = classes.get(i).trim();
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("class list: entry " + i + " is empty");
                }
                Integer before = index.putIfAbsent(name, i);
                if (before != null) {
                    throw new IllegalArgumentException("class list: '" + name + "' is given twice (entries " + before
                        + " and " + i + "); each class name must be listed once");
                }
            }
        }
    }

    /**
     * {@return labels given by the order in which class names are first seen (see the class notes for how stable
     * that is)}
     */
    public static ClassLabels seen() {
        return new ClassLabels(null);
    }

    /**
     * {@return labels given by a class list: a name's label is its index in it}
     *
     * @param classes the class names, each once
     * @throws IllegalArgumentException when a name is empty or given twice (naming it)
     */
    public static ClassLabels of(List<String> classes) {
        return new ClassLabels(List.copyOf(classes));
    }

    /**
     * {@return labels given by a class list file: one class name per line (UTF-8), line 1 is label 0; blank lines
     * and lines starting with {@code #} are skipped}
     *
     * @param file the file
     * @throws UncheckedIOException     naming the file when it cannot be read
     * @throws IllegalArgumentException naming the file when it holds no class or a class twice
     */
    public static ClassLabels read(Path file) {
        List<String> names = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String name = line.trim();
                if (!name.isEmpty() && !name.startsWith("#")) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("class list " + file + ": cannot read it: " + e, e);
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("class list " + file + ": no class name in it (one per line)");
        }
        try {
            return of(names);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** {@return whether labels come from a fixed class list} */
    public boolean hasList() {
        return classes != null;
    }

    /**
     * {@return the label of a {@code .cls} member's text (already trimmed): an integer as it is, a class name by the
     * list or the order seen; -1 when it has none (a name not in the list)}
     *
     * @param text the member's text
     */
    public int label(String text) {
        synchronized (index) {
            Integer known = index.get(text);
            if (known != null) {
                return known;
            }
        }
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException notANumber) {
            // a class name
        }
        if (classes != null || text.isEmpty()) {
            return -1;
        }
        synchronized (index) {
            return index.computeIfAbsent(text, n -> index.size());
        }
    }

    /** {@return the class names seen so far or listed, by label} */
    public List<String> names() {
        if (classes != null) {
            return classes;
        }
        synchronized (index) {
            String[] byLabel = new String[index.size()];
            index.forEach((name, label) -> byLabel[label] = name);
            return List.of(byLabel);
        }
    }
}
