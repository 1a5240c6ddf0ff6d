package org.spdl4j.s3;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.spdl4j.loader.SampleEntry;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * What a listing becomes: objects filtered by extension, and samples labelled by their class sub-prefix
 * ({@code prefix/<class>/<file>}, classes sorted by name) when every object has one. Pure functions.
 */
final class S3Listing {
    private S3Listing() {
    }

    /** The samples of listed objects, keyed by their URIs, in listing (key) order. */
    static List<SampleEntry> entries(S3Location at, List<S3Object> objects) {
        List<String> classes = classes(at, objects);
        List<SampleEntry> entries = new ArrayList<>(objects.size());
        for (S3Object o : objects) {
            URI uri = at.objectUri(o.key());
            int label = classes.isEmpty() ? SampleEntry.NO_LABEL : classes.indexOf(classOf(at, o.key()));
            entries.add(new SampleEntry(uri.toString(), label, null, uri));
        }
        return entries;
    }

    /** The sorted class names when every object sits in a class sub-prefix, else an empty list. */
    private static List<String> classes(S3Location at, List<S3Object> objects) {
        TreeSet<String> names = new TreeSet<>();
        for (S3Object o : objects) {
            String cls = classOf(at, o.key());
            if (cls == null) {
                return List.of();
            }
            names.add(cls);
        }
        return List.copyOf(names);
    }

    private static String classOf(S3Location at, String key) {
        String rel = key.substring(Math.min(key.length(), directoryOf(at.prefix()).length()));
        int slash = rel.indexOf('/');
        return slash <= 0 ? null : rel.substring(0, slash);
    }

    /** The part of a prefix up to its last '/': the "folder" class sub-prefixes are relative to. */
    private static String directoryOf(String prefix) {
        int slash = prefix.lastIndexOf('/');
        return slash < 0 ? "" : prefix.substring(0, slash + 1);
    }

    static List<S3Object> withExtensions(List<S3Object> objects, Set<String> extensions) {
        return objects.stream().filter(o -> {
            String k = o.key();
            int dot = k.lastIndexOf('.');
            return dot > k.lastIndexOf('/') && extensions.contains(k.substring(dot + 1).toLowerCase(Locale.ROOT));
        }).toList();
    }
}
