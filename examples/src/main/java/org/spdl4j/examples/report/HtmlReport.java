package org.spdl4j.examples.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One self-contained HTML page: headings, tables, preformatted text, inline SVG {@link SvgChart charts} and links to
 * the data files beside it. No script, no external resource: it opens offline, from a CI artifact or a mail. The style
 * sheet lets wide tables wrap their headers and scroll inside their own box instead of widening the page.
 *
 * <p>Not thread-safe: build and write on one thread.
 */
public final class HtmlReport {
    private static final String STYLE = "body{font-family:sans-serif;margin:1.5em auto;max-width:62em;padding:0 1em;"
        + "color:#222}h1{font-size:1.4em;overflow-wrap:anywhere}h2{font-size:1.15em;margin-top:1.6em}"
        + ".subtitle{color:#555;overflow-wrap:anywhere}"
        + ".table-box{max-width:100%;overflow-x:auto}"
        + "table{border-collapse:collapse;font-size:0.8em;font-variant-numeric:tabular-nums}"
        + "th,td{border-bottom:1px solid #ddd;padding:0.25em 0.4em;text-align:right;vertical-align:top}"
        + "th{background:#f3f3f3;white-space:normal;max-width:8em}td{white-space:nowrap}"
        + "th:first-child,td:first-child{text-align:left}tr.bottleneck td{background:#fff3e0;font-weight:bold}"
        + "pre{background:#f6f6f6;padding:0.8em;white-space:pre-wrap;overflow-wrap:anywhere;font-size:0.85em}"
        + "svg.chart{max-width:100%;height:auto;display:block;margin:0.8em 0;border:1px solid #ddd}";
    private final String title;
    private final StringBuilder body = new StringBuilder(16 * 1024);

    /**
     * Starts a page.
     *
     * @param title    the page's title (the browser tab and the heading)
     * @param subtitle a line under the heading (what ran, when); empty for none
     */
    public HtmlReport(String title, String subtitle) {
        this.title = title;
        body.append("<h1>").append(SvgChart.escape(title)).append("</h1>\n");
        if (!subtitle.isEmpty()) {
            body.append("<p class=\"subtitle\">").append(SvgChart.escape(subtitle)).append("</p>\n");
        }
    }

    /**
     * Adds a section heading.
     *
     * @param text the heading
     * @return this
     */
    public HtmlReport heading(String text) {
        body.append("<h2>").append(SvgChart.escape(text)).append("</h2>\n");
        return this;
    }

    /**
     * Adds a paragraph of text.
     *
     * @param text the text
     * @return this
     */
    public HtmlReport paragraph(String text) {
        body.append("<p>").append(SvgChart.escape(text)).append("</p>\n");
        return this;
    }

    /**
     * Adds preformatted text (wrapped at the page's width).
     *
     * @param text the text
     * @return this
     */
    public HtmlReport preformatted(String text) {
        body.append("<pre>").append(SvgChart.escape(text)).append("</pre>\n");
        return this;
    }

    /**
     * Adds a table.
     *
     * @param header      the column headings
     * @param rows        the cells, row by row
     * @param highlighted index of a row to highlight (the bottleneck), or -1
     * @return this
     */
    public HtmlReport table(List<String> header, List<List<String>> rows, int highlighted) {
        body.append("<div class=\"table-box\"><table>\n<tr>");
        for (String h : header) {
            body.append("<th>").append(SvgChart.escape(h)).append("</th>");
        }
        body.append("</tr>\n");
        for (int r = 0; r < rows.size(); r++) {
            body.append(r == highlighted ? "<tr class=\"bottleneck\">" : "<tr>");
            for (String c : rows.get(r)) {
                body.append("<td>").append(SvgChart.escape(c)).append("</td>");
            }
            body.append("</tr>\n");
        }
        body.append("</table></div>\n");
        return this;
    }

    /**
     * Adds a chart, inline.
     *
     * @param chart the chart
     * @return this
     */
    public HtmlReport chart(SvgChart chart) {
        body.append(chart.toSvg());
        return this;
    }

    /**
     * Adds a list of links to files beside the page, with a hint on how to open the kinds it knows.
     *
     * @param files file names relative to the page
     * @return this
     */
    public HtmlReport files(List<String> files) {
        body.append("<ul>\n");
        for (String f : files) {
            body.append("<li><a href=\"").append(SvgChart.escape(f)).append("\">").append(SvgChart.escape(f))
                .append("</a>")
                .append(f.endsWith(".json") ? " (open in ui.perfetto.dev or chrome://tracing)" : "")
                .append(f.endsWith(".hlog") ? " (HdrHistogram interval log: spdl4j compare, HistogramLogAnalyzer)" : "")
                .append("</li>\n");
        }
        body.append("</ul>\n");
        return this;
    }

    /** {@return the whole page} */
    public String render() {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>"
            + SvgChart.escape(title) + "</title>\n<style>" + STYLE + "</style></head><body>\n" + body
            + "</body></html>\n";
    }

    /**
     * Writes the page.
     *
     * @param file the {@code .html} file
     * @throws IOException when it cannot be written
     */
    public void write(Path file) throws IOException {
        Files.writeString(file, render(), StandardCharsets.UTF_8);
    }
}
