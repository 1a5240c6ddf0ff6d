package org.spdl4j.cuda;

import java.util.Locale;
import org.spdl4j.offheap.SystemProperties;

/**
 * The defaults of cuda-staging in one place, and its two system properties: which device
 * {@link DeviceDiscovery#open()} opens, a choice of the machine rather than of the code. Read once when this class
 * loads. Thread-safe (immutable after class initialization).
 *
 * <pre>
 *   spdl4j.cuda.mode    auto | cuda | host   auto: GPU when one works, else host (default auto)
 *   spdl4j.cuda.device  ordinal of the GPU to use (default 0)
 * </pre>
 *
 * <p>Everything else is an option with its default named here: copies in flight
 * ({@link HostToDeviceTransfer#create(Device, int)}, {@link DeviceTransfer#to}), the device buffer pool's cache and
 * pinned-memory mapping ({@link DeviceOptions}).
 *
 * <p>A property value that does not parse, is out of range or (for the mode) is none of the names, in any case, fails
 * this class's initialisation with a message naming the property ({@link SystemProperties}), rather than leaving the
 * default silently in effect or failing later, when a device is opened.
 */
public final class CudaConfiguration {
    /** Property: which device to use ("auto", "cuda" or "host"). */
    public static final String MODE_PROP = "spdl4j.cuda.mode";
    /** Default for {@link #MODE_PROP}. */
    public static final String MODE_DEFAULT = "auto";
    /** Property: GPU ordinal. */
    public static final String DEVICE_PROP = "spdl4j.cuda.device";
    /** Default for {@link #DEVICE_PROP}. */
    public static final int DEVICE_DEFAULT = 0;

    /** Effective value of {@link #MODE_PROP}, in lower case: "auto", "cuda" or "host". */
    public static final String MODE = SystemProperties.enumValue(MODE_PROP, Mode.AUTO).name().toLowerCase(Locale.ROOT);
    /** Effective value of {@link #DEVICE_PROP}. */
    public static final int DEVICE = SystemProperties.intValue(DEVICE_PROP, DEVICE_DEFAULT, 0, Integer.MAX_VALUE);

    /** Default copies in flight per transfer (K, one stream each) of {@link HostToDeviceTransfer#create(Device)}. */
    public static final int IN_FLIGHT_DEFAULT = 4;
    /** Default of {@link DeviceOptions#maxCachedBytes()}: free device memory the buffer pool keeps, 2 GiB. */
    public static final long POOL_MAX_CACHED_DEFAULT = 2L << 30;
    /** Default of {@link DeviceOptions#pinnedDeviceMap()}: pinned host memory is not mapped into the device. */
    public static final boolean PINNED_DEVICE_MAP_DEFAULT = false;
    /**
     * The longest a transfer's submit waits for a free in-flight slot, and its close for the copies, in milliseconds
     * (30 s): a copy slot that long busy means a hung GPU, not a slow one.
     */
    public static final long SUBMIT_TIMEOUT_MS = 30_000;

    private CudaConfiguration() {
    }

    /** The names {@link #MODE_PROP} accepts (what {@link DeviceDiscovery#open(String, int)} takes), for the reader. */
    private enum Mode {
        AUTO, CUDA, HOST
    }
}
