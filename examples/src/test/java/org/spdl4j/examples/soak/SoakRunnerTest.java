package org.spdl4j.examples.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SoakRunnerTest {
    @TempDir
    Path dir;

    @Test
    void shouldRunThePipelineOverAndOverAndWriteTheCsvAndPlot() throws Exception {
        Path data = dir.resolve("data");
        SampleImages.ensure(data, 24);
        Path out = dir.resolve("out");
        StringWriter text = new StringWriter();

        int code = SoakRunner.run(data, Duration.ofSeconds(5), Duration.ofSeconds(1), out, new PrintWriter(text));

        assertThat(code).as(text.toString()).isIn(0, 1); // the pass mark is for the 10-minute run, not 5 s
        List<String> csv = Files.readAllLines(out.resolve(SoakReport.CSV));
        assertThat(csv.get(0)).isEqualTo(MemorySample.CSV_HEADER);
        assertThat(csv).hasSizeBetween(1 + 3, 1 + 8); // a sample at 0 s, about one per second, one at the end
        String[] last = csv.get(csv.size() - 1).split(",");
        assertThat(last).hasSize(11);
        assertThat(Long.parseLong(last[1])).as("RSS KiB").isPositive();
        assertThat(Long.parseLong(last[3])).as("heap committed").isGreaterThanOrEqualTo(Long.parseLong(last[2]));
        assertThat(Long.parseLong(last[9])).as("images delivered").isGreaterThanOrEqualTo(24);
        assertThat(Long.parseLong(last[10])).as("epochs").isGreaterThanOrEqualTo(1);
        String svg = Files.readString(out.resolve(SoakReport.SVG));
        assertThat(svg).startsWith("<?xml").contains("data-name=\"RSS\"").endsWith("</svg>\n");
        assertThat(text.toString()).contains("RSS after warm-up, peak per window").contains("growth").contains("soak.csv");
    }

    @Test
    void shouldMeasureGrowthFromWindowPeaksAfterWarmUp() {
        // RSS swinging between a low and a high state (a big frame held now and then), the top creeping 1% a window
        java.util.ArrayList<MemorySample> samples = new java.util.ArrayList<>();
        samples.add(sample(0, 100)); // warm-up: not counted
        for (int i = 0; i < 60; i++) {
            long top = 1000 + 10L * (i / 10);
            samples.add(sample(10 + i, i % 10 == 5 ? top : i % 3 == 0 ? 600 : 900));
        }
        SoakReport report = new SoakReport(samples, 10);
        assertThat(report.windowPeaksKiB()).containsExactly(1000, 1010, 1020, 1030, 1040, 1050);
        assertThat(report.rssGrowthPercent()).isCloseTo(5.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(SoakRunner.exitStatus(report.rssGrowthPercent(), SoakRunner.DEFAULT_MAX_GROWTH_PERCENT))
            .as("5%% is not below the mark").isEqualTo(1);

        // flat tops with the low state caught by chance at the start and the high state at the end: 0%, not a leak
        List<MemorySample> swinging = List.of(sample(0, 100), sample(10, 600), sample(11, 1000), sample(12, 600),
            sample(13, 1000), sample(14, 990), sample(15, 1000));
        assertThat(new SoakReport(swinging, 10).windowPeaksKiB()).containsExactly(1000, 1000, 1000);
        assertThat(new SoakReport(swinging, 10).rssGrowthPercent()).isZero();

        // fewer than two windows of two samples: unmeasured, never a pass
        assertThat(new SoakReport(samples.subList(0, 4), 10).rssGrowthPercent()).isNaN();
        // RSS unreadable (-1, not Linux): unmeasured
        List<MemorySample> unreadable = List.of(sample(0, -1), sample(10, -1), sample(20, -1), sample(30, -1),
            sample(40, -1));
        assertThat(new SoakReport(unreadable, 5).rssGrowthPercent()).isNaN();
    }

    @Test
    void shouldPassOnlyBelowThePassMarkAndFailWhenUnmeasured() {
        assertThat(SoakRunner.exitStatus(4.99, SoakRunner.DEFAULT_MAX_GROWTH_PERCENT)).isZero();
        assertThat(SoakRunner.exitStatus(-3.0, SoakRunner.DEFAULT_MAX_GROWTH_PERCENT)).isZero();
        assertThat(SoakRunner.exitStatus(5.0, SoakRunner.DEFAULT_MAX_GROWTH_PERCENT)).isEqualTo(1);
        assertThat(SoakRunner.exitStatus(12.0, SoakRunner.DEFAULT_MAX_GROWTH_PERCENT)).isEqualTo(1);
        assertThat(SoakRunner.exitStatus(Double.NaN, SoakRunner.DEFAULT_MAX_GROWTH_PERCENT)).isEqualTo(1);
        assertThat(SoakRunner.exitStatus(7.0, 10.0)).isZero();
    }

    @Test
    void shouldFailASoakThatDeliveredNoImage() throws Exception {
        Path bad = Files.createDirectories(dir.resolve("corrupt/cls"));
        for (int i = 0; i < 4; i++) {
            Files.write(bad.resolve(i + ".jpg"), new byte[] {(byte) 0xFF, (byte) 0xD8, 1, 2, 3, (byte) i});
        }
        StringWriter text = new StringWriter();
        int code = SoakRunner.run(dir.resolve("corrupt"), Duration.ofSeconds(2), Duration.ofSeconds(1),
                dir.resolve("out-corrupt"), new PrintWriter(text));
        assertThat(code).as(text.toString()).isEqualTo(1);
        assertThat(text.toString()).contains("no image was delivered");
    }

    private static MemorySample sample(double seconds, long rssKiB) {
        return new MemorySample(seconds, rssKiB, 0, 0, 0, 0, 0, 0, 10, 0, 0);
    }
}
