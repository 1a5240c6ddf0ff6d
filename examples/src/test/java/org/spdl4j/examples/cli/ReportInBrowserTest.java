package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.report.HeadlessBrowser;
import org.spdl4j.examples.sample.SampleImages;

/**
 * The {@code --report} page as a browser shows it: Chromium (headless) loads it, and the DOM it built is read back.
 * Every chart must be there with data (a series of more than one point), for a run of about half a second and for a
 * run of a few seconds. A run of a minute is sampled as these are ({@code RunTimeline}: 50 ms steps, thinned past
 * 1024 samples), so it draws the same charts with more points. Skipped, saying why, only when no browser is
 * installed.
 */
@Timeout(300)
class ReportInBrowserTest {
    private static final List<String> CHARTS = List.of("task time by stage", "throughput over time",
        "ring occupancy over time");
    private static final Pattern TIME = Pattern.compile("wall (\\d+\\.\\d) s");

    @TempDir
    static Path data;

    @TempDir
    Path work;

    @BeforeAll
    static void sample() throws Exception {
        SampleImages.generate(data, 40, 3);
    }

    @Test
    void shouldDrawEveryChartWithDataForAHalfSecondRun() throws Exception {
        HeadlessBrowser browser = browser();
        Path report = work.resolve("short");
        String out = run("run", "--data", data.toString(), "--batch-size", "8", "--decode-threads", "2",
            "--epochs", "6", "--no-progress", "--report", report.toString());
        String dom = browser.dumpDom(report.resolve("index.html"), work);
        assertEveryChartHasData(dom, 3);
        assertThat(dom).contains("<title>spdl4j run over " + data, "images/s", "batches/s",
            "spdl4j run --data " + data).doesNotContain("run run", "items/s");
        assertThat(wallSeconds(out)).as("a short run").isLessThan(5);
    }

    @Test
    void shouldDrawEveryChartWithDataForARunOfSeconds() throws Exception {
        HeadlessBrowser browser = browser();
        Path report = work.resolve("long");
        String out = run("run", "--data", data.toString(), "--batch-size", "8", "--decode-threads", "1",
            "--epochs", "60", "--no-progress", "--report", report.toString());
        double wall = wallSeconds(out);
        String dom = browser.dumpDom(report.resolve("index.html"), work);
        // 50 ms steps: about 20 points a second; a loaded machine may wake the sampler late, so ask for half
        assertEveryChartHasData(dom, (int) Math.max(3, wall * 10));
        Path png = browser.screenshot(report.resolve("index.html"), work, 1000, 2400);
        assertThat(luminanceVariance(ImageIO.read(png.toFile()))).as("the page is drawn, not blank").isGreaterThan(50);
    }

    private static HeadlessBrowser browser() {
        var found = HeadlessBrowser.find();
        Assumptions.assumeTrue(found.isPresent(), "no headless browser: install chromium (apt-get install chromium;"
            + " .ci/run does so when it runs as root) or set SPDL4J_BROWSER");
        return found.orElseThrow();
    }

    private static void assertEveryChartHasData(String dom, int minPoints) {
        String[] svgs = dom.split("<svg");
        assertThat(svgs.length - 1).as("charts in the page").isEqualTo(CHARTS.size());
        for (String title : CHARTS) {
            String svg = null;
            for (int i = 1; i < svgs.length; i++) {
                if (svgs[i].contains(title)) {
                    svg = svgs[i].substring(0, svgs[i].indexOf("</svg>"));
                }
            }
            assertThat(svg).as("chart '" + title + "'").isNotNull();
            List<HeadlessBrowser.Series> series = HeadlessBrowser.series(svg);
            assertThat(series).as(title).isNotEmpty();
            int most = series.stream().mapToInt(HeadlessBrowser.Series::points).max().orElse(0);
            assertThat(most).as("points of the fullest series of '" + title + "'")
                .isGreaterThanOrEqualTo(title.startsWith("task time") ? 10 : minPoints);
        }
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Spdl4jCommand.execute(new PrintWriter(out), new PrintWriter(err), args);
        assertThat(status).as(err.toString()).isZero();
        return out.toString();
    }

    private static double wallSeconds(String out) {
        Matcher m = TIME.matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static double luminanceVariance(BufferedImage image) {
        double sum = 0;
        double squares = 0;
        long n = 0;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                int rgb = image.getRGB(x, y);
                double l = 0.299 * (rgb >> 16 & 0xff) + 0.587 * (rgb >> 8 & 0xff) + 0.114 * (rgb & 0xff);
                sum += l;
                squares += l * l;
                n++;
            }
        }
        double mean = sum / n;
        return squares / n - mean * mean;
    }
}
