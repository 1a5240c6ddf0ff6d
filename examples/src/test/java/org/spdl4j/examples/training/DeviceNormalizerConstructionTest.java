package org.spdl4j.examples.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.cuda.Device;
import org.spdl4j.cuda.DeviceDiscovery;

/**
 * A batch shape whose normalized result does not fit one host buffer is refused before anything is started, with a
 * message naming the sizes, and leaves no transfer thread or stream behind (the device is closed after it).
 */
@Timeout(60)
class DeviceNormalizerConstructionTest {
    @Test
    void shouldRefuseAResultLargerThanOneHostBufferAndLeaveNothingRunning() {
        Device device = DeviceDiscovery.open("host", 0);
        try {
            // 8 x 3 x 8192 x 8192 float32 = 6 GiB: more than a ByteBuffer holds
            assertThatThrownBy(() -> new DeviceNormalizer(device, 8, 8192, 8192))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("8192").hasMessageContaining("--batch");
            assertThat(device.counters().streams()).as(device.counters().toString()).isZero();
            assertThat(h2dThreads()).as("transfer completion threads").isEmpty();
        } finally {
            device.close();
        }
        assertThat(device.counters().allReleased()).as(device.counters().toString()).isTrue();
    }

    private static List<String> h2dThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
            .filter(n -> n.startsWith("spdl4j-h2d-")).toList();
    }
}
