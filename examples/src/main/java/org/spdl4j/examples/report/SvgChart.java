package org.spdl4j.examples.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart written as SVG text: named series of (x, y) points over two {@link ChartAxis axes}, a legend on the
 * right. The page that holds it needs no script and no image file; the browser draws the text crisply at any zoom.
 *
 * <p>The layout leaves room for what it draws: the left margin is as wide as the longest y tick label plus the
 * rotated y title beside it, the x title sits below the x tick labels, the legend is as wide as its longest name, so
 * titles never overprint ticks. Each series is one {@code <polyline class="series">} carrying
 * {@code data-name} and {@code data-points} (its point count), which tests and scripts read back.
 *
 * <p>Not thread-safe: build and render on one thread.
 */
public final class SvgChart {
    private static final String[] PALETTE = {
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
    private static final int WIDTH = 860;
    private static final int HEIGHT = 380;
    private static final int TOP = 40;
    private static final int BOTTOM = 52;
    private static final double CHAR_WIDTH = 7.0; // 12px sans-serif, a generous average
    private static final int Y_TITLE_BAND = 24;
    private static final int MARKED_POINTS = 24;

    private final String title;
    private final ChartAxis x;
    private final ChartAxis y;
    private final List<Series> series = new ArrayList<>();

    private record Series(String name, double[] xs, double[] ys, int color, boolean dashed) {
    }

    /**
     * Creates an empty chart.
     *
     * @param title the title drawn on top
     * @param x     the horizontal axis
     * @param y     the vertical axis
     */
    public SvgChart(String title, ChartAxis x, ChartAxis y) {
        this.title = title;
        this.x = x;
        this.y = y;
    }

    /**
     * Adds a solid series in the next palette colour.
     *
     * @param name legend name
     * @param xs   x values
     * @param ys   y values, as many as {@code xs}
     * @return this
     */
    public SvgChart add(String name, double[] xs, double[] ys) {
        return add(name, xs, ys, series.size(), false);
    }

    /**
     * Adds a series in a chosen colour, solid or dashed (two runs of one stage: one colour, two dash styles).
     *
     * @param name   legend name
     * @param xs     x values
     * @param ys     y values, as many as {@code xs}
     * @param color  index into the palette (taken modulo its size)
     * @param dashed whether the line is dashed
     * @return this
     * @throws IllegalArgumentException when the arrays differ in length
     */
    public SvgChart add(String name, double[] xs, double[] ys, int color, boolean dashed) {
        if (xs.length != ys.length) {
            throw new IllegalArgumentException("series '" + name + "': " + xs.length + " x values, " + ys.length + " y");
        }
        series.add(new Series(name, xs.clone(), ys.clone(), Math.floorMod(color, PALETTE.length), dashed));
        return this;
    }

    /** {@return the chart's title} */
    public String title() {
        return title;
    }

    /** {@return the chart as an {@code <svg>} element, to put inline in an HTML page} */
    public String toSvg() {
        ChartAxis.Fitted fx = fit(x, true);
        ChartAxis.Fitted fy = fit(y, false);
        int longestY = 0;
        for (String l : fy.labels()) {
            longestY = Math.max(longestY, l.length());
        }
        int longestName = 0;
        for (Series s : series) {
            longestName = Math.max(longestName, s.name().length());
        }
        int left = Y_TITLE_BAND + 10 + (int) Math.ceil(longestY * CHAR_WIDTH) + 8;
        int legend = series.isEmpty() ? 20 : 36 + (int) Math.ceil(longestName * CHAR_WIDTH) + 12;
        int plotW = WIDTH - left - legend;
        int plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder b = new StringBuilder(8192);
        b.append(fmt("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\""
            + " height=\"%d\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        b.append("<title>").append(escape(title)).append("</title>\n");
        b.append(fmt("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, HEIGHT));
        b.append(fmt("<text class=\"chart-title\" x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">", left))
            .append(escape(title)).append("</text>\n");
        for (int i = 0; i < fx.ticks().length; i++) {
            double px = left + fx.fraction(fx.ticks()[i]) * plotW;
            b.append(fmt("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e4e4e4\"/>\n", px, TOP, px,
                TOP + plotH));
            b.append(fmt("<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", px, TOP + plotH + 16))
                .append(escape(fx.labels()[i])).append("</text>\n");
        }
        for (int i = 0; i < fy.ticks().length; i++) {
            double py = TOP + plotH - fy.fraction(fy.ticks()[i]) * plotH;
            b.append(fmt("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", left, py,
                left + plotW, py));
            b.append(fmt("<text class=\"y-tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", left - 8, py + 4))
                .append(escape(fy.labels()[i])).append("</text>\n");
        }
        b.append(fmt("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n", left, TOP,
            plotW, plotH));
        b.append(fmt("<text class=\"x-title\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", left + plotW / 2.0,
            TOP + plotH + 40)).append(escape(x.title())).append("</text>\n");
        b.append(fmt("<text class=\"y-title\" transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\">",
            TOP + plotH / 2.0)).append(escape(y.title())).append("</text>\n");
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            drawSeries(b, s, fx, fy, left, plotW, plotH);
            int ly = TOP + 10 + k * 18;
            int lx = left + plotW + 12;
            b.append(fmt("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"%s/>\n", lx,
                ly - 4, lx + 22, ly - 4, PALETTE[s.color()], s.dashed() ? " stroke-dasharray=\"5 3\"" : ""));
            b.append(fmt("<text class=\"legend\" x=\"%d\" y=\"%d\">", lx + 28, ly)).append(escape(s.name()))
                .append("</text>\n");
        }
        return b.append("</svg>\n").toString();
    }

    private void drawSeries(StringBuilder b, Series s, ChartAxis.Fitted fx, ChartAxis.Fitted fy, int left,
                            int plotW, int plotH) {
        StringBuilder points = new StringBuilder(s.xs().length * 14);
        for (int i = 0; i < s.xs().length; i++) {
            double px = left + clampFraction(fx, x.transform(s.xs()[i])) * plotW;
            double py = TOP + plotH - clampFraction(fy, y.transform(s.ys()[i])) * plotH;
            points.append(i == 0 ? "" : " ").append(fmt("%.1f,%.1f", px, py));
        }
        String color = PALETTE[s.color()];
        b.append(fmt("<polyline class=\"series\" data-name=\"%s\" data-points=\"%d\" fill=\"none\" stroke=\"%s\""
                + " stroke-width=\"2\" stroke-linejoin=\"round\"%s points=\"", escape(s.name()), s.xs().length, color,
            s.dashed() ? " stroke-dasharray=\"6 4\"" : "")).append(points).append("\"/>\n");
        if (s.xs().length > 0 && s.xs().length <= MARKED_POINTS) { // few points (a profile): mark each
            for (String xy : points.toString().split(" ")) {
                String[] c = xy.split(",");
                b.append(fmt("<circle cx=\"%s\" cy=\"%s\" r=\"3\" fill=\"%s\"/>\n", c[0], c[1], color));
            }
        }
    }

    private static double clampFraction(ChartAxis.Fitted f, double transformed) {
        return Double.isInfinite(transformed) && transformed < 0 ? 0 : Math.clamp(f.fraction(transformed), 0.0, 1.0);
    }

    /** Fits an axis to every series' values on that axis (positive ones only for log scales). */
    private ChartAxis.Fitted fit(ChartAxis axis, boolean horizontal) {
        boolean log = axis.scale() == ChartAxis.Scale.LOG10 || axis.scale() == ChartAxis.Scale.LOG2;
        double min = Double.NaN;
        double max = Double.NaN;
        for (Series s : series) {
            for (double v : horizontal ? s.xs() : s.ys()) {
                if (Double.isFinite(v) && (!log || v > 0)) {
                    min = Double.isNaN(min) ? v : Math.min(min, v);
                    max = Double.isNaN(max) ? v : Math.max(max, v);
                }
            }
        }
        return axis.fit(min, max);
    }

    /**
     * Writes the chart as a standalone {@code .svg} file, which any browser opens.
     *
     * @param file the file
     * @throws IOException when it cannot be written
     */
    public void writeSvg(Path file) throws IOException {
        Files.writeString(file, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + toSvg(), StandardCharsets.UTF_8);
    }

    /**
     * Escapes text for HTML and XML content and attribute values.
     *
     * @param s the text
     * @return it with {@code & < > "} escaped
     */
    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
