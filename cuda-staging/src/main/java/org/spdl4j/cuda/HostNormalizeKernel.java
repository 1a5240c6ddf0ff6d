package org.spdl4j.cuda;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link NormalizeKernel} in Java, for {@link HostDevice}; runs on the calling thread when launched. It computes
 * exactly what {@code normalize.cu} computes ({@code Math.fma} on the same float constants is the single-rounding
 * {@code fma.rn.f32} of the PTX), so it doubles as the CPU reference for the GPU kernel.
 *
 * <p>Thread-safe (stateless); allocates nothing per element.
 */
final class HostNormalizeKernel implements NormalizeKernel {
    static final HostNormalizeKernel INSTANCE = new HostNormalizeKernel();

    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private HostNormalizeKernel() {
    }

    @Override
    public void launch(DeviceBuffer src, TensorSpec srcSpec, DeviceBuffer dst, ChannelNormalization norm,
                       DeviceStream stream) {
        NormalizeKernel.validate(src, srcSpec, dst, norm);
        normalize(src.address(), srcSpec, dst.address(), norm);
    }

    /**
     * Normalizes a uint8 NHWC batch at {@code src} into float32 NCHW at {@code dst}, both in host memory.
     *
     * @param src     source address
     * @param srcSpec {@code U8 [N, H, W, C]}
     * @param dst     destination address, room for {@code N*C*H*W} floats
     * @param norm    per-channel constants
     */
    static void normalize(long src, TensorSpec srcSpec, long dst, ChannelNormalization norm) {
        int n = srcSpec.dim(0);
        int h = srcSpec.dim(1);
        int w = srcSpec.dim(2);
        int c = srcSpec.dim(3);
        long plane = (long) h * w;
        MemorySegment in = NativeMemory.view(src, srcSpec.byteSize());
        MemorySegment out = NativeMemory.view(dst, srcSpec.elementCount() * Float.BYTES);
        for (int img = 0; img < n; img++) {
            for (int ch = 0; ch < c; ch++) {
                float scale = norm.scale(ch);
                float bias = norm.bias(ch);
                long outBase = ((long) img * c + ch) * plane;
                long inBase = (long) img * plane * c + ch;
                for (long p = 0; p < plane; p++) {
                    float v = Byte.toUnsignedInt(in.get(ValueLayout.JAVA_BYTE, inBase + p * c));
                    out.setAtIndex(FLOAT, outBase + p, Math.fma(v, scale, bias));
                }
            }
        }
    }
}
