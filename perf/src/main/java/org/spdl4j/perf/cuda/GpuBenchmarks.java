package org.spdl4j.perf.cuda;

import org.spdl4j.cuda.CudaDevice;
import org.spdl4j.cuda.DeviceDiscovery;

/**
 * Entry point for the GPU copy benchmarks: runs JMH on {@code org.spdl4j.perf.cuda} when a GPU can be used, and
 * otherwise prints why and exits 0 (a machine without a GPU skips them, it does not fail).
 *
 * <pre>bin/spdl4j-java -cp perf/target/benchmarks.jar org.spdl4j.perf.cuda.GpuBenchmarks [JMH options]</pre>
 */
public final class GpuBenchmarks {
    private GpuBenchmarks() {
    }

    /**
     * Runs the benchmarks or explains why not.
     *
     * @param args JMH options (for example {@code -f 1 -wi 3 -i 5 -rf json -rff h2d.json})
     * @throws Exception from JMH
     */
    public static void main(String[] args) throws Exception {
        DeviceDiscovery.Probe probe = DeviceDiscovery.probe();
        if (!probe.available()) {
            System.out.println("spdl4j GPU benchmarks SKIPPED: no usable GPU (" + probe.reason() + ")");
            return;
        }
        String[] jmhArgs = new String[args.length + 1];
        jmhArgs[0] = "org\\.spdl4j\\.perf\\.cuda\\..*";
        System.arraycopy(args, 0, jmhArgs, 1, args.length);
        org.openjdk.jmh.Main.main(jmhArgs);
    }

    /** Opens GPU 0 for a benchmark, or fails the benchmark with the reason there is none. */
    static CudaDevice openGpu() {
        DeviceDiscovery.Probe probe = DeviceDiscovery.probe();
        if (!probe.available()) {
            throw new IllegalStateException("GPU benchmark needs a GPU: " + probe.reason()
                    + " (run through org.spdl4j.perf.cuda.GpuBenchmarks to skip instead of failing)");
        }
        return CudaDevice.open(0);
    }
}
