package org.spdl4j.cuda;

/**
 * A call on a resource of a device that was already closed (its GPU context released): the call did nothing. For a
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
