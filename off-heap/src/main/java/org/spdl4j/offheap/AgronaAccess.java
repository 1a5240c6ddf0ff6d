package org.spdl4j.offheap;

import org.agrona.UnsafeApi;

/**
 * Checks, once per JVM, that Agrona's {@code UnsafeApi} can reach {@code jdk.internal.misc.Unsafe}: every slab is
 * allocated and every lease's {@code UnsafeBuffer} reads and writes through it. Without
 * {@code --add-exports java.base/jdk.internal.misc=...} the first use throws an {@link IllegalAccessError} from
 * Agrona's class initialiser, and every later one a {@link NoClassDefFoundError}; neither names the flag. Internal: the
 * pool calls {@link #check()} before it allocates.
 *
 * <p><b>Thread safety:</b> the probe runs in this class's initialiser (once, under the JVM's class-init lock); the
 * check afterwards reads a final field.
 */
final class AgronaAccess {
    /** The flag on the class path, where spdl4j and Agrona are in the unnamed module. */
    static final String CLASS_PATH_FLAG = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";

    /** Why Agrona cannot reach {@code Unsafe}, or {@code null} when it can. */
    private static final Throwable FAILURE = probe();

    private AgronaAccess() {
    }

    /**
     * Throws when Agrona cannot reach {@code jdk.internal.misc.Unsafe}.
     *
     * @throws IllegalStateException naming the JVM flag, with Agrona's own error as the cause
     */
    static void check() {
        if (FAILURE != null) {
            throw new IllegalStateException(message(), FAILURE);
        }
    }

    /** {@return what a user must add to the command line, for the class path and for the module path} */
    static String message() {
        final Module agrona = UnsafeApi.class.getModule();
        final String moduleName = agrona.isNamed() ? agrona.getName() : "org.agrona";
        return "spdl4j needs " + CLASS_PATH_FLAG + " (Agrona's UnsafeApi uses jdk.internal.misc.Unsafe); on the"
                + " module path: --add-exports java.base/jdk.internal.misc=" + moduleName;
    }

    private static Throwable probe() {
        try {
            UnsafeApi.addressSize(); // the first call runs UnsafeApi's initialiser, which looks Unsafe up
            return null;
        } catch (IllegalAccessError | ExceptionInInitializerError | NoClassDefFoundError e) {
            if (namesInternalMisc(e)) {
                return e;
            }
            throw e; // not the missing export (Agrona itself missing, say): not ours to explain
        }
    }

    /** Whether {@code e} or a cause says {@code jdk.internal.misc} is not accessible. */
    private static boolean namesInternalMisc(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            final String m = t.getMessage();
            if (m != null && m.contains("jdk.internal.misc")) {
                return true;
            }
        }
        return false;
    }
}
