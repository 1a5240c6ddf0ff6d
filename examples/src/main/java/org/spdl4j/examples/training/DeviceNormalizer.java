package org.spdl4j.examples.training;

import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.cuda.ChannelNormalization;
import org.spdl4j.cuda.Device;
import org.spdl4j.cuda.DeviceBatch;
import org.spdl4j.cuda.DeviceBuffer;
import org.spdl4j.cuda.DeviceStream;
import org.spdl4j.cuda.NormalizeKernel;
import org.spdl4j.cuda.TensorSpec;
import org.spdl4j.offheap.tensor.DType;

/**
 * The training loop's device step: runs the normalize kernel on a batch the loader has copied to the device (ImageNet
 * mean and std, uint8 NHWC to float32 NCHW) and copies the result back for the CPU model. On a machine without a GPU
 * the same calls run on {@link org.spdl4j.cuda.HostDevice}: a Java loop and a memcpy.
 *
 * <pre>
 *  DeviceBatch (the loader's transfer) --wait ready event--> normalize (stream s) --> device f32 --D2H--> host f32
 * </pre>
 *
 * <p>The copy back exists only because this example's model trains on the CPU; a GPU model would read the device
 * buffer in place. <b>Ownership:</b> the device batch stays the caller's; the returned view is valid until the next
 * call. <b>Threading:</b> one training thread. <b>Allocation:</b> device buffers come from the device pool, the host
 * result buffer is allocated once.
 */
public final class DeviceNormalizer implements AutoCloseable {
    /** ImageNet RGB statistics of pixel values in [0, 1]. */
    private static final ChannelNormalization IMAGENET = ChannelNormalization.of(
        new float[] {0.485f, 0.456f, 0.406f}, new float[] {0.229f, 0.224f, 0.225f});

    private final Device device;
    private final DeviceStream stream;
    private final NormalizeKernel kernel;
    private final UnsafeBuffer hostResult;

    /**
     * Creates the step for batches of at most {@code maxImages} images of {@code height x width x 3}.
     *
     * @param device    the device (not owned: close it after this)
     * @param maxImages the batch size
     * @param height    image height
     * @param width     image width
     */
    public DeviceNormalizer(Device device, int maxImages, int height, int width) {
        this.device = device;
        // Sized first: a result that does not fit one host buffer is refused before a stream exists.
        long bytes = NormalizeKernel.outputSpec(TensorSpec.of(DType.U8, maxImages, height, width, 3)).byteSize();
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a normalized batch of " + maxImages + " x 3 x " + height + " x "
                + width + " float32 is " + bytes + " B, more than one host buffer holds (" + Integer.MAX_VALUE
                + " B); lower --batch or --size");
        }
        this.hostResult = new UnsafeBuffer(ByteBuffer.allocateDirect((int) bytes));
        this.kernel = device.normalizeKernel();
        this.stream = device.createStream();
    }

    /** {@return the device this step runs on} */
    public Device device() {
        return device;
    }

    /**
     * Normalizes one batch on the device and brings the float32 NCHW result back.
     *
     * @param onDevice uint8 {@code [n, H, W, 3]} on the device (its copy may still be running: the kernel waits for it)
     * @return the host view of float32 {@code [n, 3, H, W]}, valid until the next call
     */
    public DirectBuffer normalize(DeviceBatch onDevice) {
        TensorSpec u8 = onDevice.spec();
        TensorSpec f32 = NormalizeKernel.outputSpec(u8);
        try (DeviceBuffer out = device.allocate(f32.byteSize())) {
            stream.waitFor(onDevice.readyEvent()); // the kernel starts after the copy, without blocking this thread
            kernel.launch(onDevice.buffer(), u8, out, IMAGENET, stream);
            device.copyToHost(out, hostResult.addressOffset(), f32.byteSize(), stream);
            stream.synchronize(); // the CPU step reads the result next; the buffer goes back to the pool after this
        }
        return hostResult;
    }

    /** Frees the stream (the device stays open). */
    @Override
    public void close() {
        stream.close();
    }
}
