package org.spdl4j.examples.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportFilesTest {
    /** A stage name with a control character, which the trace writes as a JSON escape (formatted too). */
    private static final String STAGE_WITH_CONTROL_CHAR = "stage" + (char) 1;

    @TempDir
    Path dir;

    /** Tasks on virtual threads, one thread each, share a stage's lanes: as many tracks as tasks in flight. */
    @Test
    void shouldPutVirtualThreadTasksOnAsManyLanesAsRunAtOnceWithoutOverlap() throws Exception {
        TaskTrace trace = new TaskTrace(10_000);
        Function<Integer, Integer> read = trace.wrap("read", x -> {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            return x;
        });
        java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(8);
        List<java.util.concurrent.Future<Integer>> calls = new java.util.ArrayList<>();
        try (var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 200; i++) {
                inFlight.acquire();
                int item = i;
                calls.add(executor.submit(() -> {
                    try {
                        return read.apply(item);
                    } finally {
                        inFlight.release();
                    }
                }));
            }
        }
        for (int i = 0; i < calls.size(); i++) {
            assertThat(calls.get(i).get()).as("call %d through the trace", i).isEqualTo(i); // a throw fails here
        }
        Path file = dir.resolve("vt-trace.json");
        trace.write(file);

        java.util.Map<Integer, String> tracks = new java.util.HashMap<>();
        java.util.Map<Integer, java.util.List<double[]>> spansByTrack = new java.util.HashMap<>();
        for (JsonNode e : new ObjectMapper().readTree(file.toFile()).get("traceEvents")) {
            int tid = e.get("tid").asInt();
            if (e.get("ph").asText().equals("M")) {
                tracks.put(tid, e.get("args").get("name").asText());
            } else {
                double ts = e.get("ts").asDouble();
                spansByTrack.computeIfAbsent(tid, k -> new java.util.ArrayList<>())
                        .add(new double[] {ts, ts + e.get("dur").asDouble()});
            }
        }
        assertThat(tracks.size()).as("tracks: at most the 8 tasks in flight, not one per task").isBetween(1, 8);
        assertThat(tracks.values()).allMatch(n -> n.matches("read task lane [0-7]"));
        assertThat(spansByTrack.values().stream().mapToInt(java.util.List::size).sum()).isEqualTo(200);
        for (var lane : spansByTrack.entrySet()) {
            java.util.List<double[]> spans = lane.getValue();
            spans.sort(java.util.Comparator.comparingDouble(a -> a[0]));
            for (int k = 1; k < spans.size(); k++) {
                assertThat(spans.get(k)[0]).as("lane %s: a task starts after the one before ended",
                        tracks.get(lane.getKey())).isGreaterThanOrEqualTo(spans.get(k - 1)[1]);
            }
        }
    }

    @Test
    void shouldWriteTraceThatParsesWithOneSpanPerCallOnTheCallingThreads() throws Exception {
        TaskTrace trace = new TaskTrace(10_000);
        Function<Integer, Integer> decode = trace.wrap("decode", x -> x + 1);
        Function<Integer, Integer> read = trace.wrap("read \"io\"", x -> x * 2);
        // A call that throws on a worker thread must fail the test, not leave it waiting for a count-down forever.
        java.util.Queue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        List<Thread> workers = new java.util.ArrayList<>();
        for (int t = 0; t < 2; t++) {
            workers.add(Thread.ofPlatform().name("spdl4j-test-decode-" + t).start(() -> {
                try {
                    for (int i = 0; i < 100; i++) {
                        decode.apply(i);
                        read.apply(i);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread w : workers) {
            assertThat(w.join(java.time.Duration.ofSeconds(30))).as("%s finished", w.getName()).isTrue();
        }
        assertThat(failures).as("calls that threw on the worker threads").isEmpty();
        Path file = dir.resolve("trace.json");
        trace.write(file);

        JsonNode events = new ObjectMapper().readTree(file.toFile()).get("traceEvents");
        long spans = 0;
        long names = 0;
        for (JsonNode e : events) {
            if (e.get("ph").asText().equals("X")) {
                spans++;
                assertThat(e.get("dur").asDouble()).isGreaterThanOrEqualTo(0);
                assertThat(e.get("name").asText()).isIn("decode", "read \"io\"");
            } else {
                names++;
                assertThat(e.get("args").get("name").asText()).startsWith("spdl4j-test-decode-");
            }
        }
        assertThat(spans).isEqualTo(400);
        assertThat(names).isEqualTo(2);
    }

    /**
     * A JVM whose default locale writes other digits (ar-EG: Arabic-Indic) still writes a trace that JSON parsers read:
     * every number in it is ASCII.
     */
    @Test
    void shouldWriteATraceThatParsesWhenTheDefaultLocaleWritesOtherDigits() throws Exception {
        Locale saved = Locale.getDefault();
        Locale savedDisplay = Locale.getDefault(Locale.Category.DISPLAY);
        Locale savedFormat = Locale.getDefault(Locale.Category.FORMAT);
        Locale.setDefault(Locale.forLanguageTag("ar-EG"));
        try {
            assertThat(String.format("%03d", 7)).as("the locale formats other digits, else this proves nothing")
                .isNotEqualTo("007");
            TaskTrace trace = new TaskTrace(8);
            Function<Integer, Integer> f = trace.wrap(STAGE_WITH_CONTROL_CHAR, x -> x);
            for (int i = 0; i < 5; i++) {
                f.apply(i);
            }
            Path file = dir.resolve("ar-trace.json");
            trace.write(file);

            String text = Files.readString(file);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"(ts|dur|tid|pid)\":([^,}]*)").matcher(text);
            int numbers = 0;
            while (m.find()) {
                assertThat(m.group(2)).as(m.group()).matches("[0-9]+(\\.[0-9]{3})?");
                numbers++;
            }
            assertThat(numbers).as("ts, dur, pid, tid of 5 spans and pid, tid of one thread name").isEqualTo(22);
            long spans = 0;
            for (JsonNode e : new ObjectMapper().readTree(file.toFile()).get("traceEvents")) {
                if (e.get("ph").asText().equals("X")) {
                    spans++;
                    assertThat(e.get("name").asText()).isEqualTo(STAGE_WITH_CONTROL_CHAR);
                    assertThat(e.get("ts").isNumber()).isTrue();
                }
            }
            assertThat(spans).isEqualTo(5);
        } finally {
            Locale.setDefault(saved);
            Locale.setDefault(Locale.Category.DISPLAY, savedDisplay);
            Locale.setDefault(Locale.Category.FORMAT, savedFormat);
        }
    }

    @Test
    void shouldKeepOnlyCapacitySpansButCountAll() throws Exception {
        TaskTrace trace = new TaskTrace(10);
        Function<Integer, Integer> f = trace.wrap("s", x -> x);
        for (int i = 0; i < 25; i++) {
            f.apply(i);
        }
        Path file = dir.resolve("t.json");
        trace.write(file);
        assertThat(trace.spans()).isEqualTo(25);
        long spans = 0;
        for (JsonNode e : new ObjectMapper().readTree(file.toFile()).get("traceEvents")) {
            spans += e.get("ph").asText().equals("X") ? 1 : 0;
        }
        assertThat(spans).isEqualTo(10);
    }

    @Test
    void shouldChartOneCurvePerStageOnAPercentileAxis() {
        Histogram fast = new Histogram(3);
        Histogram slow = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            fast.recordValue(i * 1_000L);
            slow.recordValue(i * 50_000L);
        }
        Map<String, Histogram> stages = new LinkedHashMap<>();
        stages.put("read", fast);
        stages.put("decode", slow);
        String svg = PercentileCurves.chart("task time", stages).toSvg();
        assertThat(svg).contains("data-name=\"read\"", "data-name=\"decode\"", ">90%<", ">99%<", ">99.9%<",
            "stroke=\"#1f77b4\"", "stroke=\"#d62728\"");
    }

    @Test
    void shouldWriteHtmlWithInlineChartsLinksAndEscapedText() throws Exception {
        new HtmlReport("run <1>", "spdl4j run --data a&b").table(List.of("stage", "p50"),
                List.of(List.of("read", "1 ms")), 0)
            .chart(new SvgChart("c", new ChartAxis("x", ChartAxis.Scale.LINEAR), new ChartAxis("y",
                ChartAxis.Scale.LINEAR)).add("s", new double[] {0, 1}, new double[] {1, 2}))
            .preformatted("stage  p50\nread   1 ms").files(List.of("run.hlog", "trace.json"))
            .write(dir.resolve("index.html"));
        String html = Files.readString(dir.resolve("index.html"));
        assertThat(html).contains("<svg", "data-points=\"2\"", "href=\"run.hlog\"", "href=\"trace.json\"",
            "<title>run &lt;1&gt;</title>", "a&amp;b", "<tr class=\"bottleneck\"><td>read</td>", "read   1 ms");
    }
}
