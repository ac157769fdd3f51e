package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** A model nobody changes, read from several threads at once. */
class ThreadsTest {
    private static long digest(Model m) {
        long h = 0;
        for (Kind k : Kind.values()) {
            for (Entry e : m.entries(k)) {
                h = h * 31 + e.total();
                h = h * 31 + e.context().toString().hashCode();
                for (long r : e.records()) {
                    h = h * 31 + r;
                }
            }
        }
        for (Method me : m.methods()) {
            h = h * 31 + me.describe().hashCode();
            Type t = me.declaringType();
            if (t != null) {
                h = h * 31 + m.typeByName(t.name()).id(); // lookups build their index on first use
            }
        }
        return h;
    }

    @Test
    void readsFromFourThreads() throws Exception {
        try (Model m = Model.load(Support.FIB)) {
            long want = digest(m);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Long>> got = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    got.add(pool.submit(() -> {
                        long d = 0;
                        for (int j = 0; j < 50; j++) {
                            d = digest(m);
                        }
                        return d;
                    }));
                }
                for (Future<Long> f : got) {
                    assertEquals(want, f.get());
                }
            } finally {
                pool.shutdown();
            }
        }
    }
}
