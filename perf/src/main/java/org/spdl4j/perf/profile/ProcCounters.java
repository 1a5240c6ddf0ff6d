package org.spdl4j.perf.profile;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One reading of the kernel's counters for this JVM: per thread, its voluntary and involuntary context switches
 * ({@code /proc/self/task/<tid>/status}); for the whole process, user and kernel CPU time in clock ticks
 * ({@code /proc/self/stat}, which also counts threads that have ended).
 *
 * <p>Immutable. {@link #since} takes the difference to an earlier reading: a thread is compared with itself (by
 * thread id), a thread born in between counts from zero, and one that ended in between is left out (its last
 * switches are lost, which a benchmark whose threads live for the whole trial never sees).
 *
 * @param switches per thread id, {@code {voluntary, involuntary}}
 * @param userTicks  the process's user-mode CPU time, in clock ticks
 * @param kernelTicks the process's kernel-mode CPU time, in clock ticks
 */
record ProcCounters(Map<Long, long[]> switches, long userTicks, long kernelTicks) {
    /** Clock ticks per second of {@code /proc/<pid>/stat} times ({@code USER_HZ}); 100 on every Linux port we run. */
    static final int TICKS_PER_SECOND = 100;

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final Path STAT = Path.of("/proc/self/stat");

    /** {@return whether this system has the files a reading needs (Linux)} */
    static boolean available() {
        return Files.isDirectory(TASKS) && Files.isReadable(STAT);
    }

    /**
     * Reads the counters now.
     *
     * @return the reading
     * @throws IOException if {@code /proc} cannot be read (not Linux, or restricted)
     */
    static ProcCounters read() throws IOException {
        Map<Long, long[]> perThread = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String status;
                try {
                    status = Files.readString(task.resolve("status"));
                } catch (NoSuchFileException ended) {
                    continue; // the thread ended between listing and reading
                }
                perThread.put(Long.parseLong(task.getFileName().toString()), parseSwitches(status));
            }
        }
        long[] cpu = parseCpuTicks(Files.readString(STAT));
        return new ProcCounters(perThread, cpu[0], cpu[1]);
    }

    /**
     * Parses a thread's {@code status} file.
     *
     * @param status the file's text
     * @return {@code {voluntary_ctxt_switches, nonvoluntary_ctxt_switches}}
     * @throws IllegalArgumentException if either line is missing
     */
    static long[] parseSwitches(String status) {
        long voluntary = -1;
        long involuntary = -1;
        for (String line : status.split("\n")) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                voluntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                involuntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        if (voluntary < 0 || involuntary < 0) {
            throw new IllegalArgumentException("no context switch counts in /proc status text: " + status);
        }
        return new long[] {voluntary, involuntary};
    }

    /**
     * Parses a process's {@code stat} line. The command name (field 2) may hold spaces and parentheses, so fields
     * are counted from the last {@code ')'}: {@code utime} and {@code stime} are fields 14 and 15.
     *
     * @param stat the file's text
     * @return {@code {utime, stime}} in clock ticks
     * @throws IllegalArgumentException if the line is too short
     */
    static long[] parseCpuTicks(String stat) {
        int close = stat.lastIndexOf(')');
        String[] fields = stat.substring(close + 1).trim().split("\\s+");
        // fields[0] is field 3 (state): utime (14) and stime (15) are fields[11] and fields[12]
        if (close < 0 || fields.length < 13) {
            throw new IllegalArgumentException("not a /proc stat line: " + stat);
        }
        return new long[] {Long.parseLong(fields[11]), Long.parseLong(fields[12])};
    }

    /**
     * {@return the counters since {@code earlier}: switches summed over the threads alive now, CPU ticks of the
     * process}
     *
     * @param earlier a reading taken before this one
     */
    Delta since(ProcCounters earlier) {
        long voluntary = 0;
        long involuntary = 0;
        for (Map.Entry<Long, long[]> e : switches.entrySet()) {
            long[] before = earlier.switches.getOrDefault(e.getKey(), new long[2]);
            voluntary += e.getValue()[0] - before[0];
            involuntary += e.getValue()[1] - before[1];
        }
        return new Delta(voluntary, involuntary, userTicks - earlier.userTicks, kernelTicks - earlier.kernelTicks);
    }

    /**
     * What happened between two readings.
     *
     * @param voluntary   context switches where a thread blocked or parked (futex, sleep, I/O)
     * @param involuntary context switches where a thread was preempted or yielded with others runnable
     * @param userTicks   user-mode CPU time, in clock ticks
     * @param kernelTicks kernel-mode CPU time, in clock ticks
     */
    record Delta(long voluntary, long involuntary, long userTicks, long kernelTicks) {
        /** {@return voluntary plus involuntary switches} */
        long switches() {
            return voluntary + involuntary;
        }

        /** {@return the share of the process's CPU time spent in the kernel, 0 to 1 (0 when it used none)} */
        double kernelShare() {
            long all = userTicks + kernelTicks;
            return all == 0 ? 0 : (double) kernelTicks / all;
        }
    }
}
