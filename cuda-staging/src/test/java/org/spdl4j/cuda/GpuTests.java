package org.spdl4j.cuda;

import org.junit.jupiter.api.Assumptions;

/** Skips GPU tests, with the reason, where no GPU can be used. */
final class GpuTests {
    private GpuTests() {
    }

    static void assumeGpu() {
        DeviceDiscovery.Probe probe = DeviceDiscovery.probe();
        Assumptions.assumeTrue(probe.available(),
                () -> "GPU test skipped: no usable GPU on this machine (" + probe.reason() + ")");
    }
}
