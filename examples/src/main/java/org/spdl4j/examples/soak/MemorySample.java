package org.spdl4j.examples.soak;

import java.util.Locale;

/**
 * One soak measurement: where the process's memory and threads stand at one moment.
 *
 * @param seconds      seconds since the soak started
 * @param rssKiB       resident set size (VmRSS), KiB
 * @param heapUsed     Java heap in use, bytes
 * @param heapCommitted Java heap committed (guaranteed to the heap by the OS; part of RSS once touched), bytes
 * @param directBytes  NIO direct buffers in use (the "direct" BufferPoolMXBean), bytes
 * @param poolBytes    off-heap memory reserved by the live spdl4j buffer pools, bytes
 * @param leasesInUse  leases those pools have out
 * @param ffmpegObjects FFmpeg objects allocated and not freed (NativeResourceCounter)
 * @param threads      live Java threads
 * @param images       images delivered so far
 * @param epochs       epochs finished so far
 */
public record MemorySample(double seconds, long rssKiB, long heapUsed, long heapCommitted, long directBytes, long poolBytes,
                           int leasesInUse, long ffmpegObjects, int threads, long images, long epochs) {
    /** The CSV header matching {@link #csvRow()}. */
    public static final String CSV_HEADER = "seconds,rss_kib,heap_used_bytes,heap_committed_bytes,direct_bytes,pool_bytes,leases_in_use,"
            + "ffmpeg_objects,threads,images,epochs";

    /** {@return this sample as one CSV row (no line break)} */
    public String csvRow() {
        return String.format(Locale.ROOT, "%.1f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d", seconds, rssKiB, heapUsed,
                heapCommitted, directBytes,
                poolBytes, leasesInUse, ffmpegObjects, threads, images, epochs);
    }
}
