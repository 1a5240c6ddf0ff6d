package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EventPoolTest {
    /** One pooled event that fails to close must not keep the others alive; its failure is reported. */
    @Test
    void shouldDestroyEveryPooledEventWhenOneCloseFails() {
        TransferBackPressureTest.GatedDevice device = new TransferBackPressureTest.GatedDevice();
        EventPool pool = new EventPool(device);
        DeviceEvent a = pool.acquire();
        DeviceEvent b = pool.acquire();
        DeviceEvent c = pool.acquire();
        pool.release(a);
        pool.release(b);
        pool.release(c);
        device.failEventCloses.set(2);
        assertThatThrownBy(pool::close).hasMessageContaining("cuEventDestroy failed")
                .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
        assertThat(device.counters().events()).as("every pooled event destroyed").isZero();
        device.close();
        assertThat(device.counters().allReleased()).as("%s", device.counters()).isTrue();
    }
}
