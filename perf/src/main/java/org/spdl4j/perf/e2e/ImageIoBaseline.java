package org.spdl4j.perf.e2e;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.imageio.ImageIO;

/**
 * What a Java developer writes today: an ExecutorService decoding with ImageIO, Graphics2D bilinear scaling, a heap
 * {@code byte[]} per sample, a BlockingQueue of finished samples and a consumer thread that groups them into batches.
 * Order is not kept (as with spdl4j's default COMPLETION order).
 */
public final class ImageIoBaseline implements Contender {
    /** Creates the contender. */
    public ImageIoBaseline() {
    }

    @Override
    public String name() {
        return "executor+imageio";
    }

    @Override
    public void run(List<Path> files, int threads, BatchConsumer consumer) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        BlockingQueue<byte[]> done = new ArrayBlockingQueue<>(threads * 4);
        try {
            // Tasks block on the bounded queue when the consumer lags, so decoded images in memory stay bounded
            // by threads + queue capacity, as a careful developer would write it.
            List<Future<?>> tasks = new ArrayList<>(files.size());
            for (Path f : files) {
                tasks.add(pool.submit(() -> {
                    byte[] sample;
                    try {
                        sample = decode(f);
                    } catch (RuntimeException e) { // a bad image costs one sample, not the run
                        sample = ExecutorResults.FAILED;
                    }
                    done.put(sample);
                    return null;
                }));
            }
            ExecutorResults.drain(done, files.size(), consumer);
            for (Future<?> t : tasks) {
                t.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Decodes and transforms one image the ImageIO way.
     *
     * @param file the image
     * @return 224x224x3 RGB bytes
     */
    static byte[] decode(Path file) {
        try {
            BufferedImage src = ImageIO.read(file.toFile());
            if (src == null) {
                throw new IOException("no ImageIO reader for " + file);
            }
            int[] size = ImageWork.resized(src.getWidth(), src.getHeight());
            BufferedImage scaled = new BufferedImage(size[0], size[1], BufferedImage.TYPE_3BYTE_BGR);
            Graphics2D g = scaled.createGraphics();
            try {
                g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
                g.drawImage(src, 0, 0, size[0], size[1], null);
            } finally {
                g.dispose();
            }
            int left = (size[0] - ImageWork.CROP) / 2;
            int top = (size[1] - ImageWork.CROP) / 2;
            byte[] bgr = ((java.awt.image.DataBufferByte) scaled.getRaster().getDataBuffer()).getData();
            byte[] out = new byte[ImageWork.SAMPLE_BYTES];
            int o = 0;
            for (int y = 0; y < ImageWork.CROP; y++) {
                int row = ((top + y) * size[0] + left) * 3;
                for (int x = 0; x < ImageWork.CROP; x++) {
                    int p = row + x * 3;
                    out[o++] = bgr[p + 2];
                    out[o++] = bgr[p + 1];
                    out[o++] = bgr[p];
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
