#!/bin/sh
# Build and test the Java binding with the JDK alone (no Maven Central):
# javac, jar and javadoc, and JUnit 5's console launcher from Debian's
# junit5 package. meson test runs it (bindings/meson.build); by hand:
#
#   bindings/java/build.sh jar     OUT   the jar, OUT/iprof-VERSION.jar (with the
#                                        Native Image metadata generated from Fn)
#   bindings/java/build.sh test    OUT   the jar, javadoc -Xdoclint, the JUnit suite
#   bindings/java/build.sh example OUT   the example post-processor on examples/*.iprof
#   bindings/java/build.sh jdk           print the JDK found
#
# The JDK: $JAVA_HOME, then /usr/lib/jvm/* (newest first), the first whose
# release is 22 or later (java.lang.foreign is final from 22; IPROF_JVM_DIR
# replaces /usr/lib/jvm). Without one, it prints "SKIP: ..." saying what it
# looked at and exits 77 (skipped).
# The tests load the library named by IPROF_LIBRARY (meson sets it to the
# one just built) and read ../shared/corpus (IPROF_CORPUS_DIR).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cmd=${1:-jar}
out=${2:-$src/build/java}
junit=${JUNIT_STANDALONE:-/usr/share/java/junit-platform-console-standalone.jar}
version=$(sed -n "s/^ *version: '\([^']*\)'.*/\1/p" "$src/meson.build" | head -n 1)

jdk_release() {  # the feature release of a JDK home, or nothing
    [ -x "$1/bin/javac" ] && [ -f "$1/release" ] || return 0
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release"
}

find_jdk() {
    looked=""
    for home in ${JAVA_HOME:-} $(ls -d "${IPROF_JVM_DIR:-/usr/lib/jvm}"/*/ 2>/dev/null | sort -rV); do
        home=${home%/}
        r=$(jdk_release "$home")
        if [ -n "$r" ] && [ "$r" -ge 22 ]; then
            echo "$home"
            return 0
        fi
        looked="$looked $home(${r:-no JDK})"
    done
    echo "SKIP: no JDK 22 or later (JAVA_HOME, then /usr/lib/jvm/*):${looked:- nothing found}" >&2
    return 1
}

jdk=$(find_jdk) || exit 77
[ "$cmd" = jdk ] && { echo "$jdk"; exit 0; }
jar=$out/iprof-$version.jar

build_jar() {
    rm -rf "$out/classes" && mkdir -p "$out/classes"
    "$jdk/bin/javac" --release 22 -Xlint:all,-restricted -Werror -encoding UTF-8 \
        -d "$out/classes" $(find "$here/src/main/java" -name '*.java')
    # The metadata comes from the one table of descriptors (Fn), never by hand.
    "$jdk/bin/java" -cp "$out/classes" org.libiprof.Metadata \
        "$out/classes/META-INF/native-image/org.libiprof/iprof/reachability-metadata.json"
    "$jdk/bin/jar" --create --file "$jar" --module-version "$version" -C "$out/classes" .
    echo "built $jar"
}

javadoc() {
    rm -rf "$out/javadoc"
    "$jdk/bin/javadoc" -quiet -Xdoclint:all -Werror --release 22 -d "$out/javadoc" \
        --module-source-path "org.libiprof=$here/src/main/java" --module org.libiprof
    echo "javadoc: clean with -Xdoclint:all"
}

case $cmd in
jar)
    build_jar ;;
test)
    [ -f "$junit" ] || { echo "FAIL: no $junit (Debian package junit5)"; exit 1; }
    build_jar
    javadoc
    rm -rf "$out/test-classes" && mkdir -p "$out/test-classes"
    "$jdk/bin/javac" --release 22 -Xlint:all,-restricted -Werror -encoding UTF-8 \
        -cp "$out/classes:$junit" -d "$out/test-classes" $(find "$here/src/test/java" -name '*.java')
    # On the class path the tests share the package of the binding (they
    # check its table); the example runs it as the module org.libiprof.
    "$jdk/bin/java" --enable-native-access=ALL-UNNAMED \
        -Diprof.test.jar="$jar" -Diprof.test.jdk="$jdk" -Diprof.test.source="$src" \
        -jar "$junit" --disable-banner --details=tree --fail-if-no-tests \
        -cp "$out/test-classes:$out/classes" --scan-class-path "$out/test-classes" ;;
example)
    build_jar
    rm -rf "$out/example" && mkdir -p "$out/example"
    "$jdk/bin/javac" --release 22 -Werror -p "$jar" --add-modules org.libiprof -d "$out/example" \
        "$here/examples/MergeHottest.java"
    f=$src/examples/fib.iprof
    "$jdk/bin/java" --enable-native-access=org.libiprof -p "$jar" --add-modules org.libiprof \
        -cp "$out/example" MergeHottest "$out/example/merged.iprof" "$f" 2 "$f" 1 ;;
*)
    echo "usage: $0 jar|test|example|jdk [OUT]" >&2; exit 2 ;;
esac
