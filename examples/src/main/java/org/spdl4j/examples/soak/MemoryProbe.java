package org.spdl4j.examples.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.spdl4j.media.NativeResourceCounter;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolRegistry;
import org.spdl4j.offheap.SizeClassSpec;

/**
 * Reads the process's memory and thread figures for a {@link MemorySample}: VmRSS from {@code /proc/self/status}
 * (Linux), heap and direct buffers from the platform MXBeans, pooled off-heap memory from {@link PoolRegistry}, FFmpeg
 * objects from {@link NativeResourceCounter}. Allocates a little per sample (the /proc read): sampling is every few
 * seconds, off the data path.
 */
final class MemoryProbe {
    private static final Path STATUS = Path.of("/proc/self/status");

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(b -> b.getName().equals("direct")).findFirst().orElse(null);

    MemorySample sample(double seconds, long images, long epochs) {
        long poolBytes = 0;
        int leases = 0;
        for (BufferPool pool : PoolRegistry.livePools()) {
            for (SizeClassSpec c : pool.config().sizeClasses()) {
                poolBytes += (long) c.slabBytes() * c.count();
            }
            leases += pool.inUse();
        }
        java.lang.management.MemoryUsage heap = memory.getHeapMemoryUsage();
        return new MemorySample(seconds, rssKiB(), heap.getUsed(), heap.getCommitted(),
                direct == null ? 0 : direct.getMemoryUsed(), poolBytes, leases, NativeResourceCounter.outstanding(),
                threads.getThreadCount(), images, epochs);
    }

    /** {@return VmRSS in KiB, or -1 where /proc/self/status does not exist (not Linux)} */
    static long rssKiB() {
        if (!Files.exists(STATUS)) {
            return -1;
        }
        try {
            List<String> lines = Files.readAllLines(STATUS);
            for (String line : lines) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
            return -1;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + STATUS, e);
        }
    }
}
