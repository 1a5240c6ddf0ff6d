package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jcuda.driver.CUresult;
import org.junit.jupiter.api.Test;
import org.spdl4j.offheap.tensor.DType;

class ValueTypesTest {
    @Test
    void shouldDescribeABatchBySizeAndShape() {
        TensorSpec spec = TensorSpec.of(DType.U8, 32, 224, 224, 3);
        assertThat(spec.byteSize()).isEqualTo(4_816_896);
        assertThat(spec.rank()).isEqualTo(4);
        assertThat(TensorSpec.of(DType.F32, 2, 3).byteSize()).isEqualTo(24);
        assertThat(spec).isEqualTo(TensorSpec.of(DType.U8, 32, 224, 224, 3)).hasToString("U8[32, 224, 224, 3]");
        assertThatThrownBy(() -> TensorSpec.of(DType.U8, 3, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TensorSpec.of(DType.F64, Integer.MAX_VALUE, Integer.MAX_VALUE, 4))
                .isInstanceOf(ArithmeticException.class);
    }

    @Test
    void shouldFoldMeanAndStdIntoScaleAndBias() {
        ChannelNormalization n = ChannelNormalization.of(new float[] {0.5f, 0f}, new float[] {0.25f, 1f});
        assertThat(n.channels()).isEqualTo(2);
        assertThat(n.scale(0)).isEqualTo(1f / (255f * 0.25f));
        assertThat(n.bias(0)).isEqualTo(-2f);
        assertThat(n.packedAffine()).containsExactly(n.scale(0), n.scale(1), 0, 0, n.bias(0), n.bias(1), 0, 0);
        assertThatThrownBy(() -> ChannelNormalization.of(new float[] {0}, new float[] {0}))
                .hasMessageContaining("std must be finite and > 0");
        assertThatThrownBy(() -> ChannelNormalization.of(new float[5], new float[5])).hasMessageContaining("1..4");
    }

    @Test
    void shouldNameTheCudaErrorInTheMessage() {
        CudaDriverException e = new CudaDriverException("cuMemAlloc(42) on cuda:0 test", CUresult.CUDA_ERROR_OUT_OF_MEMORY);
        assertThat(e).hasMessage("cuMemAlloc(42) on cuda:0 test failed: CUDA_ERROR_OUT_OF_MEMORY (2)");
        assertThat(e.errorName()).isEqualTo("CUDA_ERROR_OUT_OF_MEMORY");
        assertThat(e.result()).isEqualTo(2);
    }
}
