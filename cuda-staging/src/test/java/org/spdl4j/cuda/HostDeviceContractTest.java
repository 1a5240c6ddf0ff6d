package org.spdl4j.cuda;

/** The device contract on the host fallback: runs everywhere. */
class HostDeviceContractTest extends DeviceContractTest {
    @Override
    Device openDevice() {
        return DeviceDiscovery.open("host", 0);
    }
}
