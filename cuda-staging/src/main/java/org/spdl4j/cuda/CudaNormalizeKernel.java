package org.spdl4j.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

/**
 * {@link NormalizeKernel} on a GPU: the PTX of {@code src/main/cuda/normalize.cu} (resource
 * {@code org/spdl4j/cuda/normalize.ptx}, PTX ISA 7.0 for compute_80) loaded with {@code cuModuleLoadData}, which
 * JIT-compiles it for the GPU at hand (Ampere, Hopper and later), and launched with {@code cuLaunchKernel}:
 * 256 threads per block, a grid of at most 16 blocks per multiprocessor, grid-stride loop.
 *
 * <p><b>Threads:</b> thread-safe (a CUfunction may be launched from any thread). <b>Allocation:</b> a launch builds
 * JCuda's small parameter-pointer objects (about ten); one launch per batch. <b>Ownership:</b> the module belongs
 * to the {@link CudaDevice}, which unloads it on close.
 */
final class CudaNormalizeKernel implements NormalizeKernel {
    static final String PTX_RESOURCE = "normalize.ptx";
    static final String FUNCTION = "spdl4j_normalize_nhwc_u8_to_nchw_f32";
    private static final int BLOCK = 256;
    private static final int BLOCKS_PER_SM = 16;

    private final CudaContext context;
    private final CUmodule module = new CUmodule();
    private final CUfunction function = new CUfunction();

    CudaNormalizeKernel(CudaContext context) {
        this.context = context;
        byte[] ptx = loadPtx();
        context.makeCurrent();
        CudaCalls.check(context.driver().moduleLoadData(module, ptx), "cuModuleLoadData(" + PTX_RESOURCE + ")", context);
        try {
            CudaCalls.check(context.driver().moduleGetFunction(function, module, FUNCTION), "cuModuleGetFunction(" + FUNCTION + ")",
                    context);
        } catch (RuntimeException e) {
            context.driver().moduleUnload(module);
            throw e;
        }
    }

    /** {@return the PTX text, NUL-terminated as cuModuleLoadData requires of a PTX image} */
    private static byte[] loadPtx() {
        try (InputStream in = CudaNormalizeKernel.class.getResourceAsStream(PTX_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource org/spdl4j/cuda/" + PTX_RESOURCE + " missing from the jar");
            }
            byte[] text = in.readAllBytes();
            return Arrays.copyOf(text, text.length + 1);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + PTX_RESOURCE, e);
        }
    }

    @Override
    public void launch(DeviceBuffer src, TensorSpec srcSpec, DeviceBuffer dst, ChannelNormalization norm,
                       DeviceStream stream) {
        NormalizeKernel.validate(src, srcSpec, dst, norm);
        CudaStream s = CudaStream.of(stream, context);
        long total = srcSpec.elementCount();
        int grid = (int) Math.min((total + BLOCK - 1) / BLOCK, (long) context.multiprocessors() * BLOCKS_PER_SM);
        // One pointer per kernel parameter, in the order of the CUDA signature:
        // (const uint8* src, float* dst, int n, int h, int w, int c, ChannelAffine affine /* float[8] by value */)
        Pointer params = Pointer.to(
                Pointer.to(new DevicePointer(src.address())),
                Pointer.to(new DevicePointer(dst.address())),
                Pointer.to(new int[] {srcSpec.dim(0)}),
                Pointer.to(new int[] {srcSpec.dim(1)}),
                Pointer.to(new int[] {srcSpec.dim(2)}),
                Pointer.to(new int[] {srcSpec.dim(3)}),
                Pointer.to(norm.packedAffine()));
        context.makeCurrent();
        CudaCalls.check(context.driver().launchKernel(function, grid, BLOCK, s.handle, params),
                "cuLaunchKernel(" + FUNCTION + ")", context);
    }

    /** Unloads the module; {@link CudaDevice#close()} calls it once, while the device's own hold keeps the context. */
    void unload() {
        context.makeCurrentToFree();
        CudaCalls.check(context.driver().moduleUnload(module), "cuModuleUnload", context);
    }
}
