// spdl4j example training-side kernel: uint8 NHWC -> float32 NCHW, per-channel affine normalization.
//
//   dst[n][c][y][x] = fma(src[n][y][x][c], scale[c], bias[c])
//   with scale[c] = 1 / (255 * std[c]) and bias[c] = -mean[c] / std[c]   (computed on the host, in float)
//
// This is (src / 255 - mean) / std folded into one fused multiply-add, so the Java reference
// (HostNormalizeKernel, Math.fma on the same float scale/bias) gives bit-identical results.
//
// One thread per output element in a grid-stride loop: writes are coalesced along x; reads stride by C (<= 4)
// bytes and are served by L1/L2. 64-bit indices: a batch may exceed 2^31 elements.
//
// Build (the PTX committed next to the Java code): see cuda-staging/README.md, "Rebuilding the PTX".

// Per-channel constants passed by value (32 bytes), up to 4 channels.
struct ChannelAffine {
    float scale[4];
    float bias[4];
};

extern "C" __global__ void spdl4j_normalize_nhwc_u8_to_nchw_f32(
        const unsigned char* __restrict__ src,
        float* __restrict__ dst,
        int n, int h, int w, int c,
        ChannelAffine affine)
{
    const long long plane = (long long) h * w;             // pixels per channel plane
    const long long total = (long long) n * c * plane;     // output elements
    const long long stride = (long long) gridDim.x * blockDim.x;
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        const long long p = i % plane;        // y * w + x
        const long long nc = i / plane;       // image * c + channel
        const int ch = (int) (nc % c);
        const long long img = nc / c;
        const float v = (float) src[(img * plane + p) * c + ch];
        dst[i] = fmaf(v, affine.scale[ch], affine.bias[ch]);
    }
}
