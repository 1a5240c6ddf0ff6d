package org.spdl4j.cuda;

import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;
import static jcuda.driver.JCudaDriver.cuInit;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import jcuda.driver.CUdevice;
import jcuda.driver.CUresult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds out whether a GPU can be used and opens the {@link Device} to use: a {@link CudaDevice}, or a
 * {@link HostDevice} when there is no driver, no GPU, or {@code spdl4j.cuda.mode=host}. Logs one line saying which
 * and why. Never crashes the JVM on a machine without CUDA: the driver library is probed by name before JCuda's
 * native code is touched, and every failure ({@link LinkageError}, JCuda's {@code CudaException}, a CUDA error) is
 * caught and becomes the reason in that line.
 *
 * <p>Thread-safe. The probe runs once per JVM (it calls cuInit) and its result is kept.
 */
public final class DeviceDiscovery {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceDiscovery.class);

    /**
     * What the probe found.
     *
     * @param available     true when cuInit succeeded and at least one GPU is visible
     * @param driverVersion the driver's CUDA version as reported by cuDriverGetVersion (12080 = 12.8), 0 if unknown
     * @param gpus          names of the visible GPUs, by ordinal
     * @param reason        why no GPU can be used (empty when available)
     */
    public record Probe(boolean available, int driverVersion, List<String> gpus, String reason) {
        /** Copies the list. */
        public Probe {
            gpus = List.copyOf(gpus);
        }
    }

    private DeviceDiscovery() {
    }

    /** {@return the result of probing the driver (cached after the first call)} */
    public static Probe probe() {
        return ProbeHolder.PROBE;
    }

    /** Lazy holder: the JVM runs the probe once, on first use, thread-safely. */
    private static final class ProbeHolder {
        static final Probe PROBE = runProbe();
    }

    /**
     * Opens the configured device ({@link CudaConfiguration#MODE}, {@link CudaConfiguration#DEVICE}).
     *
     * @return the device; the caller owns it and closes it
     */
    public static Device open() {
        return open(CudaConfiguration.MODE, CudaConfiguration.DEVICE);
    }

    /**
     * Opens a device with the default options ({@link DeviceOptions#defaults()}).
     *
     * @param mode    "auto" (GPU when usable, else host), "cuda" (GPU or fail) or "host"
     * @param ordinal GPU index
     * @return the device; the caller owns it and closes it
     * @throws IllegalStateException in mode "cuda" when no GPU can be used; the message says why
     */
    public static Device open(String mode, int ordinal) {
        return open(mode, ordinal, DeviceOptions.defaults());
    }

    /**
     * Opens a device.
     *
     * @param mode    "auto" (GPU when usable, else host), "cuda" (GPU or fail) or "host"
     * @param ordinal GPU index
     * @param options the buffer pool's cache bound and whether pinned host memory is mapped into the device
     * @return the device; the caller owns it and closes it
     * @throws IllegalStateException in mode "cuda" when no GPU can be used; the message says why
     */
    public static Device open(String mode, int ordinal, DeviceOptions options) {
        Objects.requireNonNull(options, "options");
        String m = mode.toLowerCase(Locale.ROOT);
        if (m.equals("host")) {
            return host("host memory, as asked (" + CudaConfiguration.MODE_PROP + "=host)", options);
        }
        if (!m.equals("auto") && !m.equals("cuda")) {
            throw new IllegalArgumentException(CudaConfiguration.MODE_PROP + " must be auto, cuda or host, got " + mode);
        }
        Probe probe = probe();
        String reason = probe.available() ? "" : probe.reason();
        if (probe.available() && (ordinal < 0 || ordinal >= probe.gpus().size())) {
            reason = CudaConfiguration.DEVICE_PROP + "=" + ordinal + " but the driver sees " + probe.gpus().size()
                    + " GPU(s): " + probe.gpus();
        }
        if (reason.isEmpty()) {
            try {
                CudaDevice device = CudaDevice.open(ordinal, options);
                LOG.info("spdl4j device: {} (CUDA driver {}, GPUs {})", device.name(), version(probe.driverVersion()),
                        probe.gpus());
                return device;
            } catch (RuntimeException | LinkageError e) {
                reason = "opening GPU " + ordinal + " failed: " + e;
            }
        }
        if (m.equals("cuda")) {
            throw new IllegalStateException("no usable GPU (" + CudaConfiguration.MODE_PROP + "=cuda): " + reason
                    + ". Install the NVIDIA driver, check nvidia-smi, or use " + CudaConfiguration.MODE_PROP + "=auto");
        }
        return host("host memory, no GPU: " + reason, options);
    }

    private static Device host(String why, DeviceOptions options) {
        LOG.info("spdl4j device: {}", why);
        return new HostDevice(options.maxCachedBytes());
    }

    @SuppressWarnings("restricted") // loads the driver library by name to see if it exists; needs native access
    private static Probe runProbe() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String library = os.contains("linux") ? "libcuda.so.1" : os.contains("windows") ? "nvcuda.dll" : null;
        if (library == null) {
            return unavailable(0, "CUDA is not supported on " + System.getProperty("os.name"));
        }
        try {
            // Probe the driver by name first: if it is absent, JCuda's native library would fail to link.
            SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException | IllegalCallerException e) {
            return unavailable(0, library + " cannot be loaded (no NVIDIA driver installed)");
        }
        try {
            int r = cuInit(0);
            if (r != CUresult.CUDA_SUCCESS) {
                return unavailable(0, "cuInit failed: " + CUresult.stringFor(r));
            }
            int[] version = new int[1];
            r = cuDriverGetVersion(version);
            int[] count = new int[1];
            int rc = cuDeviceGetCount(count);
            if (rc != CUresult.CUDA_SUCCESS || count[0] == 0) {
                return unavailable(version[0], rc != CUresult.CUDA_SUCCESS
                        ? "cuDeviceGetCount failed: " + CUresult.stringFor(rc) : "the driver sees no GPU");
            }
            List<String> names = new ArrayList<>();
            for (int i = 0; i < count[0]; i++) {
                names.add(deviceName(i));
            }
            return new Probe(true, r == CUresult.CUDA_SUCCESS ? version[0] : 0, names, "");
        } catch (RuntimeException | LinkageError t) { // UnsatisfiedLinkError, NoClassDefFoundError, CudaException
            return unavailable(0, "JCuda's driver binding failed: " + t);
        }
    }

    private static String deviceName(int ordinal) {
        CUdevice device = new CUdevice();
        byte[] raw = new byte[256];
        if (cuDeviceGet(device, ordinal) != CUresult.CUDA_SUCCESS
                || cuDeviceGetName(raw, raw.length, device) != CUresult.CUDA_SUCCESS) {
            return "GPU " + ordinal + " (name unavailable)";
        }
        int length = 0;
        while (length < raw.length && raw[length] != 0) {
            length++;
        }
        return new String(raw, 0, length, StandardCharsets.US_ASCII);
    }

    private static Probe unavailable(int driverVersion, String reason) {
        return new Probe(false, driverVersion, List.of(), reason);
    }

    private static String version(int v) {
        return v == 0 ? "unknown" : (v / 1000) + "." + (v % 1000) / 10;
    }
}
