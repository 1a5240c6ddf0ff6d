package org.spdl4j.cuda;

import org.spdl4j.offheap.tensor.DType;

/**
 * The example training-side kernel: a uint8 NHWC batch becomes a float32 NCHW batch normalized per channel,
 * {@code dst[n][c][y][x] = fma(src[n][y][x][c], scale[c], bias[c])} (see {@link ChannelNormalization}).
 * On a GPU it is the PTX kernel of {@code normalize.cu}; on the host a Java loop computing the same fused
 * multiply-adds, which is also the CPU reference the GPU kernel is tested against.
 *
 * <p>Thread-safe. {@link #launch} queues the work on the stream and returns (the host version runs it at once).
 */
public interface NormalizeKernel {
    /**
     * Queues the normalization of {@code src} into {@code dst}.
     *
     * @param src     the uint8 batch
     * @param srcSpec its shape, {@code U8 [N, H, W, C]} with C &lt;= 4
     * @param dst     the destination, at least {@code outputSpec(srcSpec).byteSize()} bytes
     * @param norm    per-channel constants, {@code norm.channels() == C}
     * @param stream  stream to queue on; read {@code dst} after it (or an event recorded after) has completed
     * @throws IllegalArgumentException when the shapes or sizes do not fit
     */
    void launch(DeviceBuffer src, TensorSpec srcSpec, DeviceBuffer dst, ChannelNormalization norm, DeviceStream stream);

    /**
     * The output shape for an input shape.
     *
     * @param nhwc {@code U8 [N, H, W, C]}
     * @return {@code F32 [N, C, H, W]}
     */
    static TensorSpec outputSpec(TensorSpec nhwc) {
        return TensorSpec.of(DType.F32, nhwc.dim(0), nhwc.dim(3), nhwc.dim(1), nhwc.dim(2));
    }

    /**
     * Checks the arguments of {@link #launch}.
     *
     * @param src     source buffer
     * @param srcSpec its shape
     * @param dst     destination buffer
     * @param norm    constants
     * @throws IllegalArgumentException naming what does not fit
     */
    static void validate(DeviceBuffer src, TensorSpec srcSpec, DeviceBuffer dst, ChannelNormalization norm) {
        if (srcSpec.dtype() != DType.U8 || srcSpec.rank() != 4) {
            throw new IllegalArgumentException("normalize takes U8 [N, H, W, C], got " + srcSpec);
        }
        if (srcSpec.dim(3) != norm.channels()) {
            throw new IllegalArgumentException("batch " + srcSpec + " has " + srcSpec.dim(3) + " channels, normalization "
                    + norm.channels());
        }
        if (src.byteSize() < srcSpec.byteSize()) {
            throw new IllegalArgumentException("source buffer " + src + " smaller than " + srcSpec);
        }
        long out = outputSpec(srcSpec).byteSize();
        if (dst.byteSize() < out) {
            throw new IllegalArgumentException("destination buffer " + dst + " smaller than " + out + " B");
        }
    }
}
