// The Java binding's costs against the C library's (scripts/bench.sh runs it;
// docs/performance.md has the numbers):
//
//   java --enable-native-access=org.libiprof -p iprof.jar --add-modules org.libiprof \
//        bench/BenchJava.java load|visit|entries|columns FILE [WARMUP_FILE]
//
// load:  Model.load(FILE) timed in the process, as bench_load times
//        iprof_model_load_path (the JVM's start and the binding's class
//        initialisation are not part of it: a load of WARMUP_FILE, a small
//        profile, comes first).
// visit: the loop of bench_visit in Java: every record of every entry of
//        every kind, summed, through Model.visitRecords (zero-copy views, no
//        Entry objects); 10 passes, the first and the fastest reported (the
//        first runs before the JIT has compiled the loop).
// entries: the same through Entry objects (Model.entries, Entry.recordsView()).
// columns: the loop of bench_columns in Java, after a threaded load (not
//        timed): the sum of every record of every kind through
//        Model.columns (one read-only segment per kind); the first pass
//        builds the columns in C (wall_s, and this thread's CPU time cpu_s,
//        as bench_columns), then 100 passes over the kept columns (kept_s,
//        kept_cpu_s: the fastest, once the JIT has compiled the loop and
//        Model.columns; kept_first_s: the first, before; bench_columns
//        times one pass, at C's speed from the start). The sum wraps modulo
//        2^64 and is printed unsigned, so it must equal bench_columns's.
// Prints the RESULT line of bench_common.h.
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.libiprof.Columns;
import org.libiprof.Entry;
import org.libiprof.Kind;
import org.libiprof.Model;
import org.libiprof.ReadOptions;

public class BenchJava {
    private static long peakRssKb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    private static void result(String task, double wall, long bytes, String extra) throws Exception {
        System.out.printf("RESULT task=%s wall_s=%.6f rss_kb=%d bytes=%d %s%n", task, wall, peakRssKb(), bytes, extra);
    }

    /** The sum of a segment of JAVA_LONGs (a method of its own: the JIT compiles the loop whole). */
    private static long sum(MemorySegment r) {
        long n = r.byteSize() / 8;
        long s = 0;
        for (long i = 0; i < n; i++) {
            s += r.getAtIndex(ValueLayout.JAVA_LONG, i);
        }
        return s;
    }

    private static long sumColumns(Model m) {
        long s = 0;
        for (Kind k : Kind.values()) {
            Columns c = m.columns(k);
            s += sum(c.records());
        }
        return s;
    }

    private static void columns(Path file, long size) throws Exception {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        try (Model m = Model.load(file, ReadOptions.defaults().withThreaded(true))) {
            long t0 = System.nanoTime();
            long c0 = cpu.getCurrentThreadCpuTime();
            long first = sumColumns(m);
            double wall = (System.nanoTime() - t0) / 1e9;
            double firstCpu = (cpu.getCurrentThreadCpuTime() - c0) / 1e9;
            double kept = 0;
            double keptCpu = 0;
            double keptFirst = 0;
            for (int pass = 0; pass < 100; pass++) {
                long t1 = System.nanoTime();
                long c1 = cpu.getCurrentThreadCpuTime();
                long again = sumColumns(m);
                double w = (System.nanoTime() - t1) / 1e9;
                double c = (cpu.getCurrentThreadCpuTime() - c1) / 1e9;
                if (again != first) {
                    throw new AssertionError("sums differ: " + first + " " + again);
                }
                if (pass == 0) {
                    kept = keptFirst = w;
                    keptCpu = c;
                } else {
                    kept = Math.min(kept, w);
                    keptCpu = Math.min(keptCpu, c);
                }
            }
            result("java_columns", wall, size, String.format("cpu_s=%.6f kept_s=%.6f kept_cpu_s=%.6f kept_first_s=%.6f sum=%s",
                    firstCpu, kept, keptCpu, keptFirst, Long.toUnsignedString(first)));
        }
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[1]);
        long size = Files.size(file);
        if (args.length > 2) {
            try (Model warm = Model.load(Path.of(args[2]))) {
                warm.entryCount(Kind.CALL_COUNT);
            }
        }
        if (args[0].equals("columns")) {
            columns(file, size);
            return;
        }
        if (args[0].equals("load")) {
            long t0 = System.nanoTime();
            try (Model m = Model.load(file)) {
                double t = (System.nanoTime() - t0) / 1e9;
                long entries = 0;
                for (Kind k : Kind.values()) {
                    entries += m.entryCount(k);
                }
                result("java_load", t, size, "types=" + m.typeCount() + " methods=" + m.methodCount()
                        + " entries=" + entries);
            }
            return;
        }
        try (Model m = Model.load(file)) {
            double first = 0;
            double best = 0;
            long sum = 0;
            long entries = 0;
            long records = 0;
            for (int pass = 0; pass < 10; pass++) {
                long t0 = System.nanoTime();
                sum = 0;
                entries = 0;
                records = 0;
                long[] acc = new long[3];
                for (Kind k : Kind.values()) {
                    if (args[0].equals("visit")) {
                        m.visitRecords(k, (index, r) -> {
                            long n = r.byteSize() / 8;
                            long s = 0;
                            for (long i = 0; i < n; i++) {
                                s += r.getAtIndex(ValueLayout.JAVA_LONG, i);
                            }
                            acc[0] += s;
                            acc[1] += n;
                            acc[2]++;
                        });
                        continue;
                    }
                    for (Entry e : m.entries(k)) {
                        MemorySegment r = e.recordsView();
                        long n = r.byteSize() / 8;
                        for (long i = 0; i < n; i++) {
                            acc[0] += r.getAtIndex(ValueLayout.JAVA_LONG, i);
                        }
                        acc[1] += n;
                        acc[2]++;
                    }
                }
                sum = acc[0];
                records = acc[1];
                entries = acc[2];
                double t = (System.nanoTime() - t0) / 1e9;
                if (pass == 0) {
                    first = best = t;
                } else {
                    best = Math.min(best, t);
                }
            }
            result("java_" + args[0], best, size, String.format("first_s=%.6f entries=%d records=%d sum=%d", first,
                    entries, records, sum));
        }
    }
}
