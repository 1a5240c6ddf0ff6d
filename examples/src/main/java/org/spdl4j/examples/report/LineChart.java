package org.spdl4j.examples.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;
import javax.imageio.ImageIO;

/**
 * A small line chart rendered with Java2D (headless) to a PNG: named series of (x, y) points, linear axes with
 * caller-supplied tick labels. Enough for latency-percentile curves and throughput-over-time plots with no
 * plotting library. Not thread-safe; build and write on one thread.
 */
public final class LineChart {
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf)};
    private static final int WIDTH = 900;
    private static final int HEIGHT = 500;
    private static final int LEFT = 80;
    private static final int RIGHT = 190;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<String> names = new ArrayList<>();
    private final List<double[][]> series = new ArrayList<>();
    private DoubleFunction<String> xTicks = v -> String.format(Locale.ROOT, "%.3g", v);
    private double[] xTickValues;
    private boolean logY;
    private double bottomDecade; // log axis range, set by render()
    private double topDecade;

    /**
     * Creates an empty chart.
     *
     * @param title  the title drawn on top
     * @param xLabel the x axis label
     * @param yLabel the y axis label
     */
    public LineChart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /**
     * Sets fixed x ticks (positions in x units) and how to label them.
     *
     * @param values positions of the ticks
     * @param label  label of a tick position
     * @return this
     */
    public LineChart xTicks(double[] values, DoubleFunction<String> label) {
        this.xTickValues = values.clone();
        this.xTicks = label;
        return this;
    }

    /**
     * Draws the y axis in decades (log10), for values spanning orders of magnitude such as latency percentiles;
     * values at or below zero are drawn at the axis' bottom.
     *
     * @return this
     */
    public LineChart logY() {
        this.logY = true;
        return this;
    }

    /**
     * Adds a series.
     *
     * @param name legend name
     * @param xs   x values
     * @param ys   y values, same length as {@code xs}
     * @return this
     */
    public LineChart add(String name, double[] xs, double[] ys) {
        if (xs.length != ys.length) {
            throw new IllegalArgumentException("series '" + name + "': " + xs.length + " x values, " + ys.length + " y");
        }
        names.add(name);
        series.add(new double[][] {xs.clone(), ys.clone()});
        return this;
    }

    /**
     * Renders the chart and writes it as a PNG.
     *
     * @param file the PNG file to write
     * @throws IOException when it cannot be written
     */
    public void writePng(Path file) throws IOException {
        ImageIO.write(render(), "png", file.toFile());
    }

    /** {@return the chart as an image} */
    public BufferedImage render() {
        double minX = Double.MAX_VALUE;
        double maxX = -Double.MAX_VALUE;
        double maxY = 0;
        double minPositiveY = Double.MAX_VALUE;
        for (double[][] s : series) {
            for (int i = 0; i < s[0].length; i++) {
                minX = Math.min(minX, s[0][i]);
                maxX = Math.max(maxX, s[0][i]);
                maxY = Math.max(maxY, s[1][i]);
                if (s[1][i] > 0) {
                    minPositiveY = Math.min(minPositiveY, s[1][i]);
                }
            }
        }
        if (minX > maxX) {
            minX = 0;
            maxX = 1;
        }
        if (maxX == minX) {
            maxX = minX + 1;
        }
        maxY = maxY <= 0 ? 1 : maxY * 1.08;
        if (logY) {
            bottomDecade = Math.floor(Math.log10(minPositiveY == Double.MAX_VALUE ? maxY / 10 : minPositiveY));
            topDecade = Math.ceil(Math.log10(maxY));
            if (topDecade <= bottomDecade) {
                topDecade = bottomDecade + 1;
            }
        }
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            int plotW = WIDTH - LEFT - RIGHT;
            int plotH = HEIGHT - TOP - BOTTOM;
            drawAxes(g, minX, maxX, maxY, plotW, plotH);
            for (int k = 0; k < series.size(); k++) {
                double[][] s = series.get(k);
                Path2D.Double path = new Path2D.Double();
                for (int i = 0; i < s[0].length; i++) {
                    double px = LEFT + (s[0][i] - minX) / (maxX - minX) * plotW;
                    double py = TOP + plotH - fraction(s[1][i], maxY) * plotH;
                    if (i == 0) {
                        path.moveTo(px, py);
                    } else {
                        path.lineTo(px, py);
                    }
                }
                g.setColor(PALETTE[k % PALETTE.length]);
                g.setStroke(new BasicStroke(2f));
                g.draw(path);
                int ly = TOP + 10 + k * 20;
                g.fillRect(WIDTH - RIGHT + 15, ly - 8, 14, 4);
                g.setColor(Color.DARK_GRAY);
                g.drawString(names.get(k), WIDTH - RIGHT + 35, ly);
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    /** Where {@code y} sits between the axis' bottom (0) and top (1). */
    private double fraction(double y, double maxY) {
        if (!logY) {
            return y / maxY;
        }
        if (y <= 0) {
            return 0;
        }
        return Math.max(0, (Math.log10(y) - bottomDecade) / (topDecade - bottomDecade));
    }

    private void drawAxes(Graphics2D g, double minX, double maxX, double maxY, int plotW, int plotH) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, LEFT, TOP - 15);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawRect(LEFT, TOP, plotW, plotH);
        for (int i = 0; i <= 5; i++) {
            double v = logY ? Math.pow(10, bottomDecade + (topDecade - bottomDecade) * i / 5) : maxY * i / 5;
            int y = TOP + plotH - (int) (plotH * i / 5.0);
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(LEFT + 1, y, LEFT + plotW - 1, y);
            g.setColor(Color.BLACK);
            g.drawString(String.format(Locale.ROOT, "%.3g", v), 5, y + 4);
        }
        double[] ticks = xTickValues;
        if (ticks == null) {
            ticks = new double[6];
            for (int i = 0; i <= 5; i++) {
                ticks[i] = minX + (maxX - minX) * i / 5;
            }
        }
        for (double t : ticks) {
            int x = LEFT + (int) ((t - minX) / (maxX - minX) * plotW);
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(x, TOP + 1, x, TOP + plotH - 1);
            g.setColor(Color.BLACK);
            g.drawString(xTicks.apply(t), x - 12, TOP + plotH + 18);
        }
        g.drawString(xLabel, LEFT + plotW / 2 - 40, HEIGHT - 15);
        g.drawString(yLabel, 5, TOP - 2);
    }
}
