package org.spdl4j.examples.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Axes tick where a reader expects and label plainly; titles keep clear of the tick labels. */
class SvgChartTest {
    private static final Pattern Y_TICK = Pattern.compile("<text class=\"y-tick\" x=\"(\\d+)\"[^>]*>([^<]*)</text>");
    private static final Pattern X_TICK = Pattern.compile("<text class=\"x-tick\"[^>]*y=\"(\\d+)\"[^>]*>([^<]*)</text>");

    @Test
    void shouldTickLogAxesAtDecadesWithPlainLabels() {
        String svg = new SvgChart("t", new ChartAxis("x", ChartAxis.Scale.LINEAR),
            new ChartAxis("ms", ChartAxis.Scale.LOG10))
            .add("s", new double[] {0, 1, 2}, new double[] {0.00158, 3.2, 1_000.5}).toSvg();
        assertThat(labels(Y_TICK, svg)).containsExactly("0.001", "0.01", "0.1", "1", "10", "100", "1k", "10k");
        assertThat(svg).doesNotContain("e+", "E+", "0.00158");
    }

    @Test
    void shouldTickALog2AxisAtPowersOfTwo() {
        String svg = new SvgChart("t", new ChartAxis("concurrency", ChartAxis.Scale.LOG2),
            new ChartAxis("images/s", ChartAxis.Scale.LINEAR))
            .add("decode", new double[] {1, 2, 4, 8, 16}, new double[] {100, 190, 370, 380, 375}).toSvg();
        assertThat(labels(X_TICK, svg)).containsExactly("1", "2", "4", "8", "16");
        assertThat(svg.split("<circle", -1)).as("each of the five points marked").hasSize(6);
        assertThat(labels(Y_TICK, svg)).containsExactly("0", "100", "200", "300", "400");
    }

    @Test
    void shouldLabelPercentilesAndLargeValuesShortly() {
        assertThat(ChartAxis.label(1_500)).isEqualTo("1.5k");
        assertThat(ChartAxis.label(2_000_000)).isEqualTo("2M");
        assertThat(ChartAxis.label(0.25)).isEqualTo("0.25");
        assertThat(ChartAxis.label(0.30000000000000004)).isEqualTo("0.3");
        ChartAxis.Fitted p = new ChartAxis("p", ChartAxis.Scale.PERCENTILE).fit(0, 99.99);
        assertThat(p.labels()).containsExactly("0%", "90%", "99%", "99.9%", "99.99%");
    }

    /** The y title is rotated in a band left of the widest tick label; the x title sits below the x tick labels. */
    @Test
    void shouldKeepAxisTitlesClearOfTickLabels() {
        String svg = new SvgChart("t", new ChartAxis("seconds", ChartAxis.Scale.LINEAR),
            new ChartAxis("images/s", ChartAxis.Scale.LINEAR))
            .add("s", new double[] {0, 1}, new double[] {0, 123_456}).toSvg();
        Matcher y = Y_TICK.matcher(svg);
        while (y.find()) {
            int rightEdge = Integer.parseInt(y.group(1)); // text-anchor end
            double leftEdge = rightEdge - y.group(2).length() * 8.0; // wider than any 12px sans-serif digit
            assertThat(leftEdge).as("tick '" + y.group(2) + "' left of the y title's band").isGreaterThan(16 + 8);
        }
        Matcher x = X_TICK.matcher(svg);
        assertThat(x.find()).isTrue();
        Matcher xTitle = Pattern.compile("<text class=\"x-title\"[^>]*y=\"(\\d+)\"").matcher(svg);
        assertThat(xTitle.find()).isTrue();
        assertThat(Integer.parseInt(xTitle.group(1))).as("x title baseline a line below the tick labels")
            .isGreaterThanOrEqualTo(Integer.parseInt(x.group(1)) + 16);
    }

    @Test
    void shouldDrawAnEmptySeriesAndAnEmptyChartWithoutFailing() {
        String svg = new SvgChart("t", new ChartAxis("x", ChartAxis.Scale.LOG10),
            new ChartAxis("y", ChartAxis.Scale.LOG10)).add("none", new double[0], new double[0]).toSvg();
        assertThat(svg).contains("data-points=\"0\"").doesNotContain("<circle");
        assertThat(new SvgChart("t", new ChartAxis("x", ChartAxis.Scale.LINEAR),
            new ChartAxis("y", ChartAxis.Scale.LINEAR)).toSvg()).contains("</svg>");
    }

    private static List<String> labels(Pattern p, String svg) {
        List<String> labels = new ArrayList<>();
        Matcher m = p.matcher(svg);
        while (m.find()) {
            labels.add(m.group(2));
        }
        return labels;
    }
}
