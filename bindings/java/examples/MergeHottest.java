// A post-processor in Java (docs/bindings.md shows it; the tests run it):
// merge profiles with weights, print the hottest methods, write the result.
//
//   java --enable-native-access=org.libiprof -p iprof.jar --add-modules org.libiprof \
//        MergeHottest.java OUT FILE WEIGHT [FILE WEIGHT]...
import java.nio.file.Path;
import java.util.List;
import org.libiprof.Entry;
import org.libiprof.IprofException;
import org.libiprof.Kind;
import org.libiprof.MergeOptions;
import org.libiprof.MethodTotal;
import org.libiprof.Model;
import org.libiprof.ReadOptions;
import org.libiprof.WriteOptions;

public class MergeHottest {
    public static void main(String[] args) {
        if (args.length < 3 || args.length % 2 == 0) {
            System.err.println("usage: MergeHottest OUT FILE WEIGHT [FILE WEIGHT]...");
            System.exit(2);
        }
        try (Model merged = new Model()) {
            for (int i = 1; i < args.length; i += 2) {
                // Each run is merged as it is read, its counts times its weight.
                double weight = Double.parseDouble(args[i + 1]);
                merged.mergeFrom(Path.of(args[i]), MergeOptions.defaults().withWeight(weight),
                                 ReadOptions.defaults().withStrict(true));
                System.out.printf("merged %s x %s%n", Path.of(args[i]).getFileName(), args[i + 1]);
            }
            System.out.printf("version %s: %d types, %d methods, %d call counts%n", merged.version(),
                              merged.typeCount(), merged.methodCount(), merged.entryCount(Kind.CALL_COUNT));

            System.out.println("hottest methods by call count:");
            List<MethodTotal> hottest = merged.methodTotals(Kind.CALL_COUNT, 5);
            for (MethodTotal t : hottest) {
                System.out.printf("%8d  %s%n", t.total(), merged.methodById(t.methodId()).describe());
            }

            // Where the branches of the hottest conditional entry go.
            Entry hot = null;
            for (Entry e : merged.entries(Kind.CONDITIONAL)) {
                if (hot == null || e.total() > hot.total()) {
                    hot = e;
                }
            }
            if (hot != null) {
                System.out.printf("hottest branch at %s: %s%n", hot.context().describe(),
                                  hot.branchProbabilities().map(Object::toString).orElse("never ran"));
            }

            // The canonical form: the same runs in any order give the same bytes.
            merged.write(Path.of(args[0]), WriteOptions.defaults().withCanonical(true));
            System.out.println("written " + Path.of(args[0]).getFileName());
        } catch (IprofException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
        }
    }
}
