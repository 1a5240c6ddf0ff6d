package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DeviceDiscoveryTest {
    @Test
    void shouldOpenTheHostDeviceWhenAsked() {
        try (Device device = DeviceDiscovery.open("host", 0)) {
            assertThat(device).isInstanceOf(HostDevice.class);
            assertThat(device.isGpu()).isFalse();
            assertThat(device.hostAllocator().isPinned()).isFalse();
        }
    }

    @Test
    void shouldNeverThrowInAutoModeAndSayWhyThereIsNoGpu() {
        DeviceDiscovery.Probe probe = DeviceDiscovery.probe();
        try (Device device = DeviceDiscovery.open("auto", 0)) {
            assertThat(device.isGpu()).isEqualTo(probe.available());
        }
        if (probe.available()) {
            assertThat(probe.gpus()).isNotEmpty();
            assertThat(probe.driverVersion()).isPositive();
        } else {
            assertThat(probe.reason()).isNotBlank();
            assertThat(probe.gpus()).isEmpty();
        }
    }

    @Test
    void shouldFailInCudaModeWithTheReasonWhenThereIsNoGpu() {
        DeviceDiscovery.Probe probe = DeviceDiscovery.probe();
        if (probe.available()) {
            assertThatThrownBy(() -> DeviceDiscovery.open("cuda", 1000)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("spdl4j.cuda.device=1000");
        } else {
            assertThatThrownBy(() -> DeviceDiscovery.open("cuda", 0)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(probe.reason());
        }
    }

    @Test
    void shouldFallBackToTheHostForAnOrdinalThatDoesNotExist() {
        try (Device device = DeviceDiscovery.open("auto", 1000)) {
            assertThat(device).isInstanceOf(HostDevice.class);
        }
    }

    /** The options reach the device: a host device that may cache nothing frees a closed buffer's block at once. */
    @Test
    void shouldOpenTheDeviceWithTheOptionsGiven() {
        try (Device device = DeviceDiscovery.open("host", 0, DeviceOptions.defaults().withMaxCachedBytes(0))) {
            device.allocate(4096).close();
            assertThat(device.counters().deviceAllocations()).isZero();
        }
        try (Device device = DeviceDiscovery.open("host", 0)) {
            device.allocate(4096).close();
            assertThat(device.counters().deviceAllocations()).as("kept for reuse by default").isEqualTo(1);
        }
    }

    @Test
    void shouldStartFromTheNamedDefaultOptions() {
        assertThat(DeviceOptions.defaults()).isEqualTo(new DeviceOptions(CudaConfiguration.POOL_MAX_CACHED_DEFAULT,
                CudaConfiguration.PINNED_DEVICE_MAP_DEFAULT));
        assertThat(DeviceOptions.defaults().withPinnedDeviceMap(true).pinnedDeviceMap()).isTrue();
        assertThatThrownBy(() -> DeviceOptions.defaults().withMaxCachedBytes(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxCachedBytes must be >= 0");
    }

    @Test
    void shouldRejectAnUnknownMode() {
        assertThatThrownBy(() -> DeviceDiscovery.open("tpu", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auto, cuda or host");
    }
}
