package org.spdl4j.perf.e2e;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/** Medians of the end-to-end runs: a printed table with ratios, {@code e2e.csv}, {@code e2e.json}, {@code e2e.png}. */
final class E2eReport {
    private E2eReport() {
    }

    static double median(List<Result> runs, ToDoubleFunction<Result> metric) {
        double[] v = runs.stream().mapToDouble(metric).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static void write(Path out, int threads, int repeats, Map<String, List<Result>> results) throws IOException {
        StringBuilder table = new StringBuilder();
        StringBuilder csv = new StringBuilder("contender,threads,repeats,img_per_s,first_batch_s,cpu_s_per_1000,peak_rss_mib\n");
        StringBuilder json = new StringBuilder("{\"threads\":" + threads + ",\"repeats\":" + repeats + ",\"contenders\":[");
        table.append(String.format(Locale.ROOT, "%-26s %10s %14s %14s %12s%n", "contender (median of " + repeats + ")",
            "img/s", "first batch s", "cpu s/1000img", "peak RSS MiB"));
        List<String> names = new ArrayList<>(results.keySet());
        double[] rates = new double[names.size()];
        for (int i = 0; i < names.size(); i++) {
            List<Result> runs = results.get(names.get(i));
            double rate = median(runs, Result::imgPerSecond);
            double first = median(runs, Result::firstBatchS);
            double cpu = median(runs, Result::cpuPer1000);
            double rss = median(runs, Result::peakRssMiB);
            rates[i] = rate;
            table.append(String.format(Locale.ROOT, "%-26s %10.1f %14.3f %14.2f %12.0f%n", names.get(i), rate, first, cpu, rss));
            csv.append(String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.3f,%.3f,%.0f%n", names.get(i), threads, repeats, rate,
                first, cpu, rss));
            json.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT,
                "{\"name\":\"%s\",\"img_per_s\":%.1f,\"first_batch_s\":%.3f,\"cpu_s_per_1000\":%.3f,\"peak_rss_mib\":%.0f}",
                names.get(i), rate, first, cpu, rss));
        }
        json.append("]}\n");
        List<Result> spdl = results.get("spdl4j");
        if (spdl != null) {
            table.append("\nratios (spdl4j / other, medians):\n");
            for (String name : names) {
                if (!name.equals("spdl4j")) {
                    List<Result> other = results.get(name);
                    table.append(String.format(Locale.ROOT, "  img/s vs %-24s %6.2fx   peak RSS %5.2fx   cpu/img %5.2fx%n",
                        name, median(spdl, Result::imgPerSecond) / median(other, Result::imgPerSecond),
                        median(spdl, Result::peakRssMiB) / median(other, Result::peakRssMiB),
                        median(spdl, Result::cpuPer1000) / median(other, Result::cpuPer1000)));
                }
            }
        }
        System.out.print(table);
        Files.writeString(out.resolve("e2e.txt"), table);
        Files.writeString(out.resolve("e2e.csv"), csv);
        Files.writeString(out.resolve("e2e.json"), json);
        ImageIO.write(bars("img/s, " + threads + " threads, median of " + repeats, names, rates), "png",
            out.resolve("e2e.png").toFile());
        System.out.println("wrote " + out.resolve("e2e.csv") + ", e2e.json, e2e.png, e2e.txt");
    }

    private static BufferedImage bars(String title, List<String> names, double[] values) {
        int w = 900;
        int rowH = 36;
        int h = 70 + rowH * names.size();
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, w, h);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.drawString(title, 10, 25);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            double max = 1;
            for (double v : values) {
                max = Math.max(max, v);
            }
            for (int i = 0; i < names.size(); i++) {
                int y = 45 + i * rowH;
                int len = (int) (values[i] / max * (w - 330));
                g.setColor(names.get(i).equals("spdl4j") ? new Color(0xd62728) : new Color(0x1f77b4));
                g.fillRect(230, y, Math.max(1, len), rowH - 10);
                g.setColor(Color.BLACK);
                g.drawString(names.get(i), 10, y + 18);
                g.drawString(String.format(Locale.ROOT, "%.0f", values[i]), 235 + len, y + 18);
            }
        } finally {
            g.dispose();
        }
        return img;
    }
}
