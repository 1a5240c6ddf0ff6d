package org.spdl4j.loader.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.loader.SampleEntry;

/**
 * A URL list file: one {@code http://} or {@code https://} URL per line, optionally followed by a tab and an integer
 * label; blank lines and lines starting with {@code #} are skipped, and so is a UTF-8 byte order mark. Each URL is
 * one {@link SampleEntry} keyed by the URL. Reading allocates one entry per line (once, before the run).
 */
public final class UrlListFile {
    private UrlListFile() {
    }


    /**
     * Tells whether {@code file} is a URL list: a regular file whose first non-empty line starts with {@code http://}
     * or {@code https://}. Reads only up to that line.
     *
     * @param file any path
     * @return whether it is a URL list
     */
    public static boolean isUrlList(Path file) {
        if (!Files.isRegularFile(file) || file.getFileName().toString().endsWith(".tar")) {
            return false;
        }
        try (BufferedReader in = Files.newBufferedReader(file)) {
            for (String line = withoutBom(in.readLine()); line != null; line = in.readLine()) {
                String t = line.strip();
                if (!t.isEmpty() && !t.startsWith("#")) { // comment lines are skipped, as read() skips them
                    return isUrl(t);
                }
            }
            return false;
        } catch (IOException | UncheckedIOException e) {
            return false; // unreadable or not text: not a URL list (the caller reports what it is instead)
        }
    }

    /**
     * Reads the list.
     *
     * @param file the list
     * @return its entries, in file order
     * @throws IllegalArgumentException naming the file and line when a line is not a URL or its label not an integer
     * @throws UncheckedIOException     when the file cannot be read
     */
    public static List<SampleEntry> read(Path file) {
        List<SampleEntry> entries = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file)) {
            int n = 0;
            for (String line = withoutBom(in.readLine()); line != null; line = in.readLine()) {
                n++;
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                entries.add(parse(file, n, line));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the URL list " + file + ": " + e.getMessage(), e);
        }
        return List.copyOf(entries);
    }

    private static SampleEntry parse(Path file, int lineNo, String line) {
        int tab = line.indexOf('\t');
        String url = (tab < 0 ? line : line.substring(0, tab)).strip();
        if (!isUrl(url)) {
            throw new IllegalArgumentException(file + ":" + lineNo + ": '" + url
                + "' is not an http:// or https:// URL (a URL list has one URL per line, then optionally a tab and a label)");
        }
        int label = Sample.NO_LABEL;
        if (tab >= 0) {
            String l = line.substring(tab + 1).strip();
            try {
                label = Integer.parseInt(l);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(file + ":" + lineNo + ": label '" + l + "' is not an integer", e);
            }
        }
        try {
            return SampleEntry.url(URI.create(url), label);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ":" + lineNo + ": bad URL '" + url + "': " + e.getMessage(), e);
        }
    }

    /** The first line without a UTF-8 byte order mark (Notepad and PowerShell write one), which is no URL text. */
    private static String withoutBom(String first) {
        return first != null && first.startsWith("\uFEFF") ? first.substring(1) : first;
    }

    private static boolean isUrl(String s) {
        return s.startsWith("http://") || s.startsWith("https://");
    }
}
