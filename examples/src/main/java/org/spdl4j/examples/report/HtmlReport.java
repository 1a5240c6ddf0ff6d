package org.spdl4j.examples.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the run report's {@code index.html}: the summary table as preformatted text and the plots and data files
 * that sit beside it in the report folder. Static, no scripts, readable offline.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    /**
     * Writes {@code dir/index.html}.
     *
     * @param dir     the report folder (already holding the files named)
     * @param title   page title
     * @param summary the text table (per-stage stats, throughput, CPU, RSS)
     * @param images  PNG file names inside {@code dir}, shown in order
     * @param files   other file names inside {@code dir} (hlog, trace), linked
     * @throws IOException when the page cannot be written
     */
    public static void write(Path dir, String title, String summary, List<String> images, List<String> files)
        throws IOException {
        StringBuilder html = new StringBuilder(4096);
        html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(escape(title))
            .append("</title>\n<style>body{font-family:sans-serif;margin:2em}pre{background:#f6f6f6;padding:1em}"
                + "img{max-width:100%;border:1px solid #ddd;margin:1em 0}</style></head><body>\n")
            .append("<h1>").append(escape(title)).append("</h1>\n<pre>").append(escape(summary)).append("</pre>\n");
        for (String image : images) {
            html.append("<div><img src=\"").append(escape(image)).append("\" alt=\"").append(escape(image))
                .append("\"></div>\n");
        }
        html.append("<h2>Data</h2><ul>\n");
        for (String f : files) {
            html.append("<li><a href=\"").append(escape(f)).append("\">").append(escape(f)).append("</a>")
                .append(f.endsWith(".json") ? " (open in ui.perfetto.dev or chrome://tracing)" : "")
                .append(f.endsWith(".hlog") ? " (HdrHistogram interval log: HistogramLogReader, HistogramLogAnalyzer)" : "")
                .append("</li>\n");
        }
        html.append("</ul></body></html>\n");
        Files.writeString(dir.resolve("index.html"), html, StandardCharsets.UTF_8);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
