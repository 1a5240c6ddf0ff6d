package org.spdl4j.cuda;

import java.util.Locale;
import org.spdl4j.offheap.SystemProperties;

/**
 * Every tunable of cuda-staging: a named constant with its default, overridable by a system property read once when
 * this class loads. Thread-safe (immutable after class initialization).
 *
 * <pre>
 *   spdl4j.cuda.mode                 auto | cuda | host   auto: GPU when one works, else host (default auto)
 *   spdl4j.cuda.device               ordinal of the GPU to use (default 0)
 *   spdl4j.cuda.inFlight             K: copies in flight per transfer, one stream each (default 4)
 *   spdl4j.cuda.pool.maxCachedBytes  free device memory the buffer pool keeps for reuse (default 2 GiB)
 *   spdl4j.cuda.pinned.deviceMap     pinned host memory also mapped into the device's address space (default false)
 *   spdl4j.cuda.submitTimeoutMs      longest a transfer waits for a free in-flight slot (default 30000)
 * </pre>
 *
 * <p>A value that does not parse, is out of range or (for the mode) is none of the names, in any case, fails this
 * class's initialisation with a message naming the property ({@link SystemProperties}), rather than leaving the
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
    /** Property: copies in flight per transfer (K). */
    public static final String IN_FLIGHT_PROP = "spdl4j.cuda.inFlight";
    /** Default for {@link #IN_FLIGHT_PROP}. */
    public static final int IN_FLIGHT_DEFAULT = 4;
    /** Property: bytes of free device memory the pool keeps cached. */
    public static final String POOL_MAX_CACHED_PROP = "spdl4j.cuda.pool.maxCachedBytes";
    /** Default for {@link #POOL_MAX_CACHED_PROP}. */
    public static final long POOL_MAX_CACHED_DEFAULT = 2L << 30;
    /** Property: map pinned host memory into the device address space. */
    public static final String PINNED_DEVICE_MAP_PROP = "spdl4j.cuda.pinned.deviceMap";
    /** Property: submit timeout in milliseconds. */
    public static final String SUBMIT_TIMEOUT_PROP = "spdl4j.cuda.submitTimeoutMs";
    /** Default for {@link #SUBMIT_TIMEOUT_PROP}. */
    public static final long SUBMIT_TIMEOUT_DEFAULT_MS = 30_000;

    /** Effective value of {@link #MODE_PROP}, in lower case: "auto", "cuda" or "host". */
    public static final String MODE = SystemProperties.enumValue(MODE_PROP, Mode.AUTO).name().toLowerCase(Locale.ROOT);
    /** Effective value of {@link #DEVICE_PROP}. */
    public static final int DEVICE = SystemProperties.intValue(DEVICE_PROP, DEVICE_DEFAULT, 0, Integer.MAX_VALUE);
    /** Effective value of {@link #IN_FLIGHT_PROP}. */
    public static final int IN_FLIGHT = SystemProperties.intValue(IN_FLIGHT_PROP, IN_FLIGHT_DEFAULT, 1, Integer.MAX_VALUE);
    /** Effective value of {@link #POOL_MAX_CACHED_PROP}. */
    public static final long POOL_MAX_CACHED_BYTES = SystemProperties.longValue(POOL_MAX_CACHED_PROP, POOL_MAX_CACHED_DEFAULT, 0,
            Long.MAX_VALUE);
    /** Effective value of {@link #PINNED_DEVICE_MAP_PROP}. */
    public static final boolean PINNED_DEVICE_MAP = SystemProperties.booleanValue(PINNED_DEVICE_MAP_PROP, false);
    /** Effective value of {@link #SUBMIT_TIMEOUT_PROP}. */
    public static final long SUBMIT_TIMEOUT_MS = SystemProperties.longValue(SUBMIT_TIMEOUT_PROP, SUBMIT_TIMEOUT_DEFAULT_MS, 1,
            Long.MAX_VALUE);

    private CudaConfiguration() {
    }

    /** The names {@link #MODE_PROP} accepts (what {@link DeviceDiscovery#open(String, int)} takes), for the reader. */
    private enum Mode {
        AUTO, CUDA, HOST
    }
}
