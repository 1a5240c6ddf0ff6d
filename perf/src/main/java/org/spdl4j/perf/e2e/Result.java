package org.spdl4j.perf.e2e;

import java.util.HashMap;
import java.util.Map;

/**
 * One run of one contender, parsed from its result line.
 *
 * @param mode          contender name
 * @param images        images loaded
 * @param seconds       wall seconds
 * @param imgPerSecond  throughput
 * @param firstBatchS   seconds from start to the first batch
 * @param cpuSeconds    CPU seconds, all threads and worker processes
 * @param peakRssMiB    peak resident memory, all processes, MiB
 */
public record Result(String mode, long images, double seconds, double imgPerSecond, double firstBatchS,
                     double cpuSeconds, double peakRssMiB) {
    /**
     * Parses {@code key=value} pairs as printed by RunOne and torch_baseline.py.
     *
     * @param line the result line
     * @return the result
     */
    public static Result parse(String line) {
        Map<String, String> kv = new HashMap<>();
        for (String part : line.trim().split("\\s+")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                kv.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        return new Result(kv.get("mode"), Long.parseLong(kv.get("images")), Double.parseDouble(kv.get("seconds")),
            Double.parseDouble(kv.get("img_per_s")), Double.parseDouble(kv.get("first_batch_s")),
            Double.parseDouble(kv.get("cpu_s")), Double.parseDouble(kv.get("peak_rss_mb_total")));
    }

    /** {@return CPU seconds per 1,000 images} */
    public double cpuPer1000() {
        return cpuSeconds / images * 1000.0;
    }
}
