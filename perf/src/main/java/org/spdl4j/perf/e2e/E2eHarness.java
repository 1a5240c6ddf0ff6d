package org.spdl4j.perf.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The end-to-end comparison: every contender loads the same folder of images with the same number of threads, each in
 * its own process (so peak RSS and CPU time are its own), interleaved, repeated; medians are compared side by side.
 *
 * <p>usage: {@code E2eHarness IMAGE_DIR [--threads N] [--repeats R] [--epochs E] [--out DIR] [--torch SCRIPT]
 * [--heap SIZE]} (--heap: -Xmx of every Java contender, default 1g)
 * <br>Contenders: executor+imageio (what a Java developer writes today), executor+ffmpeg (the same engine-less
 * design with spdl4j's FFmpeg decoding), spdl4j (the engine), torch (PyTorch DataLoader via torch_baseline.py, when
 * python3-torch is installed), and the limit: as many independent decode threads, no queues (IndependentThreadsLimit).
 */
public final class E2eHarness {
    private E2eHarness() {
    }

    /**
     * Entry point.
     *
     * @param args see the class comment
     * @throws Exception when a contender fails
     */
    public static void main(String[] args) throws Exception {
        Path data = Path.of(args[0]);
        int threads = intArg(args, "--threads", Runtime.getRuntime().availableProcessors());
        int repeats = intArg(args, "--repeats", 3);
        int epochs = intArg(args, "--epochs", 1);
        Path out = Path.of(arg(args, "--out", "perf/target/e2e"));
        Path torch = Path.of(arg(args, "--torch", "../shared/bench/torch_baseline.py"));
        String heap = arg(args, "--heap", "1g");
        Files.createDirectories(out);

        List<String> names = new ArrayList<>(RunOne.contenders().keySet().stream().filter(n -> !n.equals(RunOne.LIMIT))
            .sorted().toList());
        boolean hasTorch = torchAvailable(torch);
        if (!hasTorch) {
            System.out.println("torch: skipped (needs /usr/bin/python3 with python3-torch and python3-pil, and "
                + torch + "; apt-get install python3-torch python3-pil)");
        }
        // Every contender of a repeat, in a fixed label order for the report; each repeat runs them rotated by one,
        // so no contender always runs first (cold page cache, a fresh machine state) or always after the same one.
        Map<String, Run> contenders = new LinkedHashMap<>();
        for (String name : names) {
            contenders.put(name, () -> runJava(name, data, threads, epochs, heap));
        }
        if (RunOne.contenders().containsKey(RunOne.LIMIT)) {
            contenders.put("limit(" + threads + " independent threads)",
                () -> runJava(RunOne.LIMIT, data, threads, epochs, heap));
        }
        if (hasTorch) {
            contenders.put("torch DataLoader", () -> run(List.of("/usr/bin/python3", torch.toString(), data.toString(),
                "--workers", Integer.toString(threads), "--epochs", Integer.toString(epochs))));
        }
        warmPageCache(data);
        Map<String, List<Result>> results = new LinkedHashMap<>();
        contenders.keySet().forEach(label -> results.put(label, new ArrayList<>()));
        List<String> labels = new ArrayList<>(contenders.keySet());
        for (int r = 0; r < repeats; r++) {
            for (int i = 0; i < labels.size(); i++) {
                String label = labels.get((r + i) % labels.size());
                results.get(label).add(contenders.get(label).run());
            }
        }
        E2eReport.write(out, threads, repeats, results);
    }

    /** One run of one contender. */
    @FunctionalInterface
    private interface Run {
        Result run() throws IOException, InterruptedException;
    }

    /**
     * Reads every image once, so the first contender of the first repeat does not pay the disk reads the others find
     * in the page cache.
     */
    private static void warmPageCache(Path data) throws IOException {
        long bytes = 0;
        for (Path f : RunOne.images(data)) {
            bytes += Files.readAllBytes(f).length;
        }
        System.out.println("page cache warmed: " + bytes + " bytes of images read");
    }

    private static Result runJava(String contender, Path data, int threads, int epochs, String heap)
        throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        // The same heap cap for every Java contender: with the default (a quarter of the machine's memory) their peak
        // RSS would mostly measure how far G1 lets each heap grow, not what each design keeps live.
        cmd.add("-Xmx" + heap);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(RunOne.class.getName());
        cmd.add(contender);
        cmd.add(data.toString());
        cmd.add(Integer.toString(threads));
        cmd.add(Integer.toString(epochs));
        return run(cmd);
    }

    private static Result run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String resultLine = null;
        StringBuilder all = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                all.append(line).append('\n');
                if (line.startsWith("mode=")) {
                    resultLine = line;
                }
            }
        }
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0 || resultLine == null) {
            throw new IllegalStateException("contender failed: " + String.join(" ", cmd) + "\n" + all);
        }
        Result result = Result.parse(resultLine);
        System.out.println(resultLine);
        return result;
    }

    private static boolean torchAvailable(Path script) {
        if (!Files.isRegularFile(script) || !Files.isExecutable(Path.of("/usr/bin/python3"))) {
            return false;
        }
        try {
            Process p = new ProcessBuilder("/usr/bin/python3", "-c", "import torch, PIL, numpy").redirectErrorStream(true)
                .start();
            p.getInputStream().readAllBytes();
            return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String arg(String[] args, String key, String def) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(key)) {
                return args[i + 1];
            }
        }
        return def;
    }

    private static int intArg(String[] args, String key, int def) {
        return Integer.parseInt(arg(args, key, Integer.toString(def)).toLowerCase(Locale.ROOT));
    }
}
