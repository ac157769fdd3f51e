package org.libiprof;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What the tests share: the source tree, the corpus, the iprof command, a small JSON reader. */
final class Support {
    static final Path SOURCE = Path.of(System.getProperty("iprof.test.source", "../.."));
    static final Path FIB = SOURCE.resolve("examples/fib.iprof");

    private Support() {
    }

    /** A corpus file, or the test is skipped saying why. */
    static Path corpus(String name) {
        String dir = System.getenv("IPROF_CORPUS_DIR");
        Path d = dir != null ? Path.of(dir) : SOURCE.resolve("../shared/corpus");
        Path f = d.resolve(name);
        if (!Files.isRegularFile(f)) {
            System.out.println("SKIP: corpus file " + f + " is absent");
        }
        assumeTrue(Files.isRegularFile(f), "corpus file " + f + " is absent");
        return f;
    }

    /** The iprof command (IPROF, as meson sets it), or the test is skipped. */
    static String iprof() {
        String p = System.getenv("IPROF");
        if (p == null || !Files.isExecutable(Path.of(p))) {
            System.out.println("SKIP: IPROF does not name the iprof command");
        }
        assumeTrue(p != null && Files.isExecutable(Path.of(p)), "IPROF does not name the iprof command");
        return p;
    }

    /** Run a command; its standard output (fails the test on a non-zero exit). */
    static byte[] run(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(cmd + " failed with " + p.exitValue());
        }
        return out;
    }

    static String runText(String... cmd) throws IOException, InterruptedException {
        return new String(run(List.of(cmd), Map.of()), StandardCharsets.UTF_8);
    }

    /** `iprof stats --json FILE`, parsed. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> stats(Path file) throws IOException, InterruptedException {
        return (Map<String, Object>) Json.parse(runText(iprof(), "stats", "--json", file.toString()));
    }

    /**
     * Python's repr of a float (shortest round-trip digits; exponent from 1e16 up and below
     * 1e-4, as "1e-06"), to compare doubles with the Python binding's output exactly.
     */
    static String pyRepr(double d) {
        if (d == 0) {
            return 1 / d < 0 ? "-0.0" : "0.0";
        }
        java.math.BigDecimal b = new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros();
        String digits = b.unscaledValue().abs().toString();
        int exp = digits.length() - 1 - b.scale();
        String sign = d < 0 ? "-" : "";
        if (exp < -4 || exp >= 16) {
            String mant = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return sign + mant + "e" + (exp < 0 ? "-" : "+") + String.format("%02d", Math.abs(exp));
        }
        String plain = b.abs().toPlainString();
        return sign + (plain.contains(".") ? plain : plain + ".0");
    }

    /** A JSON reader for the tests (objects keep their key order; numbers are Long or Double). */
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json j = new Json(text);
            Object v = j.value();
            j.ws();
            if (j.i != text.length()) {
                throw new IllegalArgumentException("trailing text at " + j.i);
            }
            return v;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private Object value() {
            ws();
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                i++;
                ws();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    ws();
                    String k = (String) value();
                    ws();
                    i++; // ':'
                    m.put(k, value());
                    ws();
                    if (s.charAt(i++) == '}') {
                        return m;
                    }
                }
            }
            if (c == '[') {
                List<Object> l = new ArrayList<>();
                i++;
                ws();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    ws();
                    if (s.charAt(i++) == ']') {
                        return l;
                    }
                }
            }
            if (c == '"') {
                StringBuilder b = new StringBuilder();
                i++;
                while (s.charAt(i) != '"') {
                    char d = s.charAt(i++);
                    if (d == '\\') {
                        char e = s.charAt(i++);
                        switch (e) {
                            case 'n' -> b.append('\n');
                            case 't' -> b.append('\t');
                            case 'r' -> b.append('\r');
                            case 'b' -> b.append('\b');
                            case 'f' -> b.append('\f');
                            case 'u' -> {
                                b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                                i += 4;
                            }
                            default -> b.append(e);
                        }
                    } else {
                        b.append(d);
                    }
                }
                i++;
                return b.toString();
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            String n = s.substring(start, i);
            return n.matches("-?[0-9]+") ? (Object) Long.parseLong(n) : (Object) Double.parseDouble(n);
        }
    }
}
