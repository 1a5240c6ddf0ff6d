package org.spdl4j.examples.cli;

import org.spdl4j.cuda.Device;
import org.spdl4j.cuda.CudaConfiguration;
import org.spdl4j.cuda.DeviceDiscovery;

/**
 * {@code spdl4j run --device}: where batches end up. {@code cpu} keeps them in host memory (no copy stage);
 * the others add the host-to-device stage on the device they open.
 */
enum DeviceOption {
    /** Batches stay in direct host memory; no copy stage. */
    cpu,
    /** The GPU when the driver finds one, else the host device. */
    auto,
    /** The host device: the copy stage runs into host memory (exercises the path without a GPU). */
    host,
    /** The GPU, or fail with the reason. */
    gpu;

    /**
     * Opens the device this option names.
     *
     * @return the device (the caller closes it), or {@code null} for {@link #cpu}
     * @throws IllegalStateException for {@link #gpu} when no GPU can be used; the message says why and what to do
     */
    Device open() {
        return switch (this) {
            case cpu -> null;
            case auto -> DeviceDiscovery.open("auto", CudaConfiguration.DEVICE); // -Dspdl4j.cuda.device
            case host -> DeviceDiscovery.open("host", 0);
            case gpu -> openGpu();
        };
    }

    private static Device openGpu() {
        DeviceDiscovery.Probe probe = DeviceDiscovery.probe();
        if (!probe.available()) {
            throw new IllegalStateException("--device gpu: no usable GPU (" + probe.reason()
                + "); use --device auto or --device host");
        }
        try {
            return DeviceDiscovery.open("cuda", CudaConfiguration.DEVICE);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("--device gpu: " + e.getMessage(), e);
        }
    }
}
