package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;

/** The device contract on a real GPU; skipped (with the reason) where there is none. */
class CudaDeviceContractTest extends DeviceContractTest {
    @Override
    Device openDevice() {
        GpuTests.assumeGpu(); // per test, so each one is reported skipped with the reason
        Device d = DeviceDiscovery.open("cuda", 0);
        assertThat(d).isInstanceOf(CudaDevice.class);
        assertThat(d.hostAllocator().isPinned()).isTrue();
        return d;
    }
}
