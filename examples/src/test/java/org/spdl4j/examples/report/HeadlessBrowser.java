package org.spdl4j.examples.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A headless Chromium for tests: loads a page from a file, returns the DOM as the browser built it, or a screenshot.
 * Found as {@code $SPDL4J_BROWSER}, else {@code chromium}, {@code chromium-browser}, {@code google-chrome} on the
 * {@code PATH} ({@code .ci/run} installs Debian's chromium when it runs as root and none is there).
 */
public final class HeadlessBrowser {
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");
    private static final Pattern POLYLINE = Pattern.compile("<polyline[^>]*>");
    private static final Pattern ATTRIBUTE = Pattern.compile("([a-z-]+)=\"([^\"]*)\"");
    private final Path executable;

    private HeadlessBrowser(Path executable) {
        this.executable = executable;
    }

    /** {@return the browser, or empty when none is installed} */
    public static Optional<HeadlessBrowser> find() {
        String env = System.getenv("SPDL4J_BROWSER");
        if (env != null && Files.isExecutable(Path.of(env))) {
            return Optional.of(new HeadlessBrowser(Path.of(env)));
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            for (String name : NAMES) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(new HeadlessBrowser(p));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Loads the page and returns its DOM, serialised after the browser parsed and laid it out.
     *
     * @param page the HTML file
     * @param work a folder for the browser's profile
     * @return the DOM
     * @throws IOException when the browser fails or takes longer than a minute
     */
    public String dumpDom(Path page, Path work) throws IOException, InterruptedException {
        return new String(run(work, "--dump-dom", page.toUri().toString()), StandardCharsets.UTF_8);
    }

    /**
     * Takes a screenshot of the page in a window of the given size.
     *
     * @param page   the HTML file
     * @param work   a folder for the browser's profile and the image
     * @param width  window width
     * @param height window height
     * @return the PNG file
     * @throws IOException when the browser fails or takes longer than a minute
     */
    public Path screenshot(Path page, Path work, int width, int height) throws IOException, InterruptedException {
        Path png = work.resolve("screenshot.png");
        run(work, "--screenshot=" + png, "--window-size=" + width + "," + height, "--hide-scrollbars",
            page.toUri().toString());
        return png;
    }

    private byte[] run(Path work, String... args) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(work, "chromium-profile");
        List<String> command = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox",
            "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
            "--user-data-dir=" + profile));
        command.addAll(List.of(args));
        Path stdout = work.resolve("browser.out");
        Path stderr = work.resolve("browser.err");
        Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(executable + " took more than 60 s: " + Files.readString(stderr));
        }
        if (p.exitValue() != 0) {
            throw new IOException(executable + " exited " + p.exitValue() + ": " + Files.readString(stderr));
        }
        return Files.readAllBytes(stdout);
    }

    /**
     * The series a page's charts draw, read back from a DOM: each {@code <polyline class="series">}'s name and the
     * number of points its {@code points} attribute holds.
     *
     * @param dom a DOM (or any markup)
     * @return (name, points) per series, in document order
     */
    public static List<Series> series(String dom) {
        List<Series> series = new ArrayList<>();
        Matcher m = POLYLINE.matcher(dom);
        while (m.find()) {
            String name = null;
            int points = 0;
            Matcher a = ATTRIBUTE.matcher(m.group());
            while (a.find()) {
                if (a.group(1).equals("data-name")) {
                    name = a.group(2);
                } else if (a.group(1).equals("points")) {
                    points = a.group(2).isBlank() ? 0 : a.group(2).trim().split("\\s+").length;
                }
            }
            series.add(new Series(name, points));
        }
        return series;
    }

    /**
     * One drawn series.
     *
     * @param name   its legend name
     * @param points its point count
     */
    public record Series(String name, int points) {
    }
}
