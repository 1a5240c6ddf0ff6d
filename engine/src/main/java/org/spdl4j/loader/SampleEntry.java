package org.spdl4j.loader;

import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One sample of a dataset before it is read: its key, its label and where its bytes are (a local file or an
 * http(s) URL, or an object of an {@link ObjectStore}). What {@link SampleSource#of}, {@link SampleSource#streamed}
 * and {@link SampleSource#objects} take.
 *
 * @param key   names the sample in batches, logs, errors and saved states; unique within the dataset
 * @param label the class label, or {@link #NO_LABEL}
 * @param path  the local file, or {@code null} for a URL
 * @param uri   the http(s) URL or the object's URI ({@code s3://bucket/key}), or {@code null} for a local file
 */
public record SampleEntry(String key, int label, Path path, URI uri) {
    /** The label of a sample that has none. */
    public static final int NO_LABEL = -1;

    /** Checks that the key is set and exactly one of path and URL is. */
    public SampleEntry {
        Objects.requireNonNull(key, "key");
        if ((path == null) == (uri == null)) {
            throw new IllegalArgumentException("sample '" + key + "': give either a path or a URL, not "
                + (path == null ? "neither" : "both"));
        }
    }

    /**
     * A local file, keyed by its path.
     *
     * @param path  the file
     * @param label its label, or {@link #NO_LABEL}
     * @return the entry
     */
    public static SampleEntry file(Path path, int label) {
        return new SampleEntry(path.toString(), label, path, null);
    }

    /**
     * An http(s) URL, keyed by the URL.
     *
     * @param uri   the URL
     * @param label its label, or {@link #NO_LABEL}
     * @return the entry
     */
    public static SampleEntry url(URI uri, int label) {
        return new SampleEntry(uri.toString(), label, null, uri);
    }
}
