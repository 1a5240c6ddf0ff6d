package org.spdl4j.cuda;

/** A {@link DeviceStream} that forwards every call to another: tests override the calls they change. */
class ForwardingStream implements DeviceStream {
    private final DeviceStream to;

    ForwardingStream(DeviceStream to) {
        this.to = to;
    }

    @Override
    public void waitFor(DeviceEvent event) {
        to.waitFor(event);
    }

    @Override
    public void synchronize() {
        to.synchronize();
    }

    @Override
    public void close() {
        to.close();
    }
}
