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
 * INPUT order with many reads in flight over photos of a few hundred KB: the read stage holds finished reads until
 * the oldest is done, so they must not be able to take every slab the oldest one needs (that stalled it until the
 * pool's 60 s acquire timeout, then dropped it). Every image arrives, in order, long before that timeout.
 */
@Timeout(value = 45, unit = TimeUnit.SECONDS)
class InputOrderReadPoolTest {
    @TempDir
    Path dir;

    @Test
    void shouldDeliverEveryImageInOrderWithManyReadsInFlight() throws Exception {
        List<FileItem> files = new ArrayList<>();
        Random random = new Random(7);
        BufferedImage noise = new BufferedImage(560, 560, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 560; y++) {
            for (int x = 0; x < 560; x++) {
                noise.setRGB(x, y, random.nextInt());
            }
        }
        Path first = dir.resolve("img-000.jpg");
        writeJpeg(noise, first); // noise at quality 0.97: a few hundred KB, in the 1 MB size class
        assertThat(Files.size(first)).isBetween(128L * 1024, 1024L * 1024);
        for (int i = 0; i < 160; i++) {
            Path p = dir.resolve(String.format("img-%03d.jpg", i));
            if (i > 0) {
                Files.copy(first, p);
            }
            files.add(new FileItem(p, p.getFileName().toString(), i));
        }
        ImageLoaderOptions options = new ImageLoaderOptions(32, 36, 8, false, 64, 1, OutputOrder.INPUT,
                WaitPolicy.BACKOFF, 4, 4);
        List<Integer> labels = new ArrayList<>();
        try (ImageBatchLoader loader = ImageBatchLoader.of("input-order-pool", files, options)) {
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
        assertThat(labels).hasSize(160).isSorted();
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
