package org.spdl4j.cuda;

/**
 * A call for new work on a device that was already closed, or on a resource of it: the call did nothing. For a
 * wait ({@link DeviceEvent#synchronize()}) that means the work it was to wait for may still be running, so what that
 * work reads must not be reused yet.
 */
public final class DeviceClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which device, and what was called
     */
    public DeviceClosedException(String message) {
        super(message);
    }
}
