package org.spdl4j.djl;

import ai.djl.ndarray.types.DataType;
import org.spdl4j.offheap.tensor.DType;

/** spdl4j element types as DJL's. Stateless. */
final class DataTypes {
    private DataTypes() {
    }

    /**
     * DJL's type for a spdl4j element type.
     *
     * @param dtype the spdl4j type
     * @return the DJL type of the same bytes
     */
    static DataType of(DType dtype) {
        return switch (dtype) {
            case U8 -> DataType.UINT8;
            case I16 -> DataType.INT16;
            case I32 -> DataType.INT32;
            case F16 -> DataType.FLOAT16;
            case F32 -> DataType.FLOAT32;
            case F64 -> DataType.FLOAT64;
        };
    }
}
