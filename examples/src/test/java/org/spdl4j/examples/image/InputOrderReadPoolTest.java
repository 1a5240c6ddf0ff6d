package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.offheap.batch.Batch;

/**
 * INPUT order with many reads in flight: the read stage holds finished reads until the oldest is done, so younger
 * reads must not be able to take every slab the oldest one needs (that stalled it until the pool's 60 s acquire
 * timeout, then dropped it, again and again). Two sizes: photos of a few hundred KB, in the 1 MB class that holds a
 * slab for every item in flight, and photos of a few MB, above it, where the classes have a few slabs only and large
 * reads take their buffers in input order. Every image arrives, in order, long before that timeout.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class InputOrderReadPoolTest {
    @TempDir
    Path dir;

    @Test
    void shouldDeliverEveryImageInOrderWithManyReadsInFlight() throws Exception {
        List<FileItem> files = photos(560, 160, 128L * 1024, 1024L * 1024); // a few hundred KB each
        assertEveryImageInOrder("input-order-pool", files, 64);
    }

    @Test
    void shouldDeliverEveryLargeImageInOrderWithManyReadsInFlight() throws Exception {
        List<FileItem> files = photos(1500, 48, 1024L * 1024 + 1, 4L * 1024 * 1024); // about 3 MB each
        assertEveryImageInOrder("input-order-large", files, 16);
    }

    /** {@code count} copies of one noise JPEG of {@code side} x {@code side} whose size lies in [min, max]. */
    private List<FileItem> photos(int side, int count, long minBytes, long maxBytes) throws Exception {
        Random random = new Random(7);
        BufferedImage noise = new BufferedImage(side, side, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x++) {
                noise.setRGB(x, y, random.nextInt());
            }
        }
        Path first = dir.resolve("img-000.jpg");
        writeJpeg(noise, first); // noise at quality 0.97: large for its side
        assertThat(Files.size(first)).isBetween(minBytes, maxBytes);
        List<FileItem> files = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path p = dir.resolve(String.format("img-%03d.jpg", i));
            if (i > 0) {
                Files.copy(first, p);
            }
            files.add(new FileItem(p, p.getFileName().toString(), i));
        }
        return files;
    }

    private static void assertEveryImageInOrder(String name, List<FileItem> files, int readConcurrency)
            throws Exception {
        ImageLoaderOptions options = new ImageLoaderOptions(32, 36, 8, false, readConcurrency, 1, OutputOrder.INPUT,
                WaitPolicy.BACKOFF, 4, 4);
        List<Integer> labels = new ArrayList<>();
        try (ImageBatchLoader loader = ImageBatchLoader.of(name, files, options)) {
            for (Batch batch : loader) {
                try {
                    for (int i = 0; i < batch.size(); i++) {
                        labels.add(loader.label(batch, i));
                    }
                } finally {
                    batch.close();
                }
            }
            assertThat(loader.failedImages()).as("images dropped").isZero();
        }
        assertThat(labels).hasSize(files.size()).isSorted();
    }

    private static void writeJpeg(BufferedImage image, Path file) throws Exception {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ImageWriteParam param = writer.getDefaultWriteParam();
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(0.97f);
        try (ImageOutputStream out = ImageIO.createImageOutputStream(file.toFile())) {
            writer.setOutput(out);
            writer.write(null, new IIOImage(image, null, null), param);
        } finally {
            writer.dispose();
        }
    }
}
