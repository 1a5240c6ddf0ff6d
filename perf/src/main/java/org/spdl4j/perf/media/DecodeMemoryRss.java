package org.spdl4j.perf.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.media.DecodeMemoryBudget;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PerThreadImageDecoders;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.testing.TestPngs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Peak resident memory of decoding large images on several threads, with the shared decode memory budget or without
 * one (a budget too large to matter): six generated 9500x9500 RGB PNGs of one colour each (about 270 KB encoded, 258
 * MiB decoded), each decoded to 224x224 RGB by {@link PerThreadImageDecoders} on {@code threads} threads. Prints one
 * line: threads, budget, peak RSS (VmHWM) and the budget's peak reservation.
 *
 * <p>Usage: {@code DecodeMemoryRss THREADS [default|unlimited|BYTES]}; run one process per configuration (VmHWM is
 * the process's peak). {@code perf/decode-memory-rss.sh} runs the table of docs/benchmarks.md.
 */
public final class DecodeMemoryRss {
    private static final int SIDE = 9500;
    private static final int IMAGES = 6;

    private DecodeMemoryRss() {
    }

    /**
     * Runs one configuration.
     *
     * @param args threads, then optionally "default" (the shared budget), "unlimited" or a budget in bytes
     * @throws Exception when a decode fails
     */
    public static void main(final String[] args) throws Exception {
        final int threads = Integer.parseInt(args[0]);
        final String mode = args.length > 1 ? args[1] : "default";
        final DecodeMemoryBudget budget = switch (mode) {
            case "default" -> DecodeMemoryBudget.shared();
            case "unlimited" -> DecodeMemoryBudget.ofBytes(Long.MAX_VALUE / 2);
            default -> DecodeMemoryBudget.ofBytes(Long.parseLong(mode));
        };
        final List<UnsafeBuffer> pngs = new ArrayList<>();
        for (int i = 0; i < IMAGES; i++) {
            final byte[] png = TestPngs.uniform(SIDE, SIDE, 2, 40 * i); // RGB
            final UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(png.length));
            b.putBytes(0, png);
            pngs.add(b);
        }
        final ImageSpec spec = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
        final long hwmBefore = vmHwmKib();
        final long t0 = System.nanoTime();
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT, budget)) {
            final List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int first = t;
                done.add(pool.submit(() -> {
                    final UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(spec.bytes()));
                    for (int i = first; i < IMAGES; i += threads) {
                        final UnsafeBuffer src = pngs.get(i);
                        decoders.decode(src, 0, src.capacity(), "uniform-" + i + ".png", spec, dst, 0);
                    }
                    return null;
                }));
            }
            for (final Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
        } finally {
            pool.shutdownNow();
        }
        final String size = "unlimited".equals(mode) ? "" : String.format(Locale.ROOT, "%.0f MiB",
                budget.capacity() / 1048576.0);
        System.out.printf(Locale.ROOT, "threads %d  budget %-9s %8s  peak RSS %6.0f MiB (%.0f before decoding)"
                        + "  peak reserved %6.0f MiB  %.1f s%n", threads, mode, size, vmHwmKib() / 1024.0,
                hwmBefore / 1024.0, budget.peakInUse() / 1048576.0, (System.nanoTime() - t0) / 1e9);
    }

    private static long vmHwmKib() throws IOException {
        for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
