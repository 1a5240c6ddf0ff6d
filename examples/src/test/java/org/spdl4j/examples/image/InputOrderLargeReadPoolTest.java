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
 * INPUT order over photos of a few MB, larger than the 1 MB size class that holds a slab for every item in flight:
 * the classes above it have a few slabs only, and a younger read that took one first held it while waiting behind an
 * older read that waited for a slab (a 60 s stall at the pool's acquire timeout, then the older image dropped, again
 * and again). Large reads take their buffers in input order: every image arrives, in order, long before that timeout.
 */
@Timeout(value = 45, unit = TimeUnit.SECONDS)
class InputOrderLargeReadPoolTest {
    @TempDir
    Path dir;

    @Test
    void shouldDeliverEveryImageInOrderWithManyReadsInFlight() throws Exception {
        List<FileItem> files = new ArrayList<>();
        Random random = new Random(7);
        BufferedImage noise = new BufferedImage(1500, 1500, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 1500; y++) {
            for (int x = 0; x < 1500; x++) {
                noise.setRGB(x, y, random.nextInt());
            }
        }
        Path first = dir.resolve("img-000.jpg");
        writeJpeg(noise, first); // noise at quality 0.97: about 3 MB, above the 1 MB class
        assertThat(Files.size(first)).isBetween(1024L * 1024 + 1, 4L * 1024 * 1024);
        for (int i = 0; i < 48; i++) {
            Path p = dir.resolve(String.format("img-%03d.jpg", i));
            if (i > 0) {
                Files.copy(first, p);
            }
            files.add(new FileItem(p, p.getFileName().toString(), i));
        }
        ImageLoaderOptions options = new ImageLoaderOptions(32, 36, 8, false, 16, 1, OutputOrder.INPUT,
                WaitPolicy.BACKOFF, 4, 4);
        List<Integer> labels = new ArrayList<>();
        try (ImageBatchLoader loader = ImageBatchLoader.of("input-order-large", files, options)) {
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
        assertThat(labels).hasSize(48).isSorted();
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
