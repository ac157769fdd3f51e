/**
 * libiprof for the JVM: read, validate, model, merge, filter, compare and
 * write GraalVM Native Image PGO profiles (.iprof files) through the C
 * library, with {@code java.lang.foreign} (Java 22 or later). Run with
 * {@code --enable-native-access=org.libiprof} (or {@code ALL-UNNAMED} on
 * the class path). Start at {@link org.libiprof.Model}.
 */
module org.libiprof {
    exports org.libiprof;
}
