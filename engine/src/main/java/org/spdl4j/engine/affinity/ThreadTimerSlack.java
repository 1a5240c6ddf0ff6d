package org.spdl4j.engine.affinity;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.OptionalLong;

/**
 * The calling thread's <em>timer slack</em> (Linux {@code prctl(PR_SET_TIMERSLACK)} / {@code PR_GET_TIMERSLACK}
 * through FFM): how much later than asked the kernel may end the thread's timed sleeps, so that it can batch
 * wake-ups. The default for a normal thread is 50 µs, so {@code LockSupport.parkNanos(1_000)} sleeps 50-70 µs: a
 * backoff that parks for a microsecond or two after its spin and yield phases really parks for fifty. The engine sets
 * its own threads' slack ({@link org.spdl4j.engine.EngineConfiguration#TIMER_SLACK_NANOS}) so its short parks are
 * as short as asked; other threads (the consumer's) keep theirs.
 *
 * <p><b>Threading:</b> acts on the calling thread only. <b>Allocation:</b> none. Elsewhere than 64-bit Linux, or
 * without native access, {@link #isSupported()} is false and the calls do nothing.
 */
@SuppressWarnings("restricted") // a downcall into libc: needs --enable-native-access (spdl4j.jvm.flags has it)
public final class ThreadTimerSlack {
    private static final int PR_SET_TIMERSLACK = 29;
    private static final int PR_GET_TIMERSLACK = 30;
    private static final MethodHandle PRCTL = lookup(); // int prctl(int, ...) with 4 longs; null if unsupported

    private ThreadTimerSlack() {
    }

    private static MethodHandle lookup() {
        if (!System.getProperty("os.name", "").startsWith("Linux") || ValueLayout.ADDRESS.byteSize() != 8) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            // glibc declares prctl(int option, ...): the four longs are variadic, passed as the C ABI passes those.
            return linker.defaultLookup().find("prctl").map(f -> linker.downcallHandle(f,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                    Linker.Option.firstVariadicArg(1))).orElse(null);
        } catch (RuntimeException | LinkageError e) { // native access denied
            return null;
        }
    }

    /** {@return whether this platform lets a thread set its timer slack (64-bit Linux, native access enabled)} */
    public static boolean isSupported() {
        return PRCTL != null;
    }

    /**
     * Sets the calling thread's timer slack.
     *
     * @param nanos the slack, at least 1 (0 would mean "back to the default" to the kernel, so it is refused here)
     * @return {@code true} if set, {@code false} if unsupported or refused
     * @throws IllegalArgumentException if {@code nanos < 1}
     */
    public static boolean setForCurrentThread(long nanos) {
        if (nanos < 1) {
            throw new IllegalArgumentException("timer slack must be at least 1 ns, got " + nanos);
        }
        if (PRCTL == null) {
            return false;
        }
        try {
            return (int) PRCTL.invokeExact(PR_SET_TIMERSLACK, nanos, 0L, 0L, 0L) == 0;
        } catch (Throwable t) { // invokeExact declares Throwable; a downcall with these types throws nothing else
            return false;
        }
    }

    /** {@return the calling thread's timer slack in nanoseconds, empty if it cannot be read} */
    public static OptionalLong currentThread() {
        if (PRCTL == null) {
            return OptionalLong.empty();
        }
        try {
            int slack = (int) PRCTL.invokeExact(PR_GET_TIMERSLACK, 0L, 0L, 0L, 0L);
            return slack < 0 ? OptionalLong.empty() : OptionalLong.of(slack);
        } catch (Throwable t) {
            return OptionalLong.empty();
        }
    }
}
