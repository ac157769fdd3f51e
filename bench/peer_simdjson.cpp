// Peer: simdjson DOM parse (Debian libsimdjson-dev).
//
//   peer_simdjson FILE    padded_string::load + dom::parser::parse, then a
//                         walk that counts the elements of every top-level
//                         array (the DOM is built; the walk is cheap)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <sys/resource.h>

#include <simdjson.h>

static double now()
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: peer_simdjson FILE\n");
        return 1;
    }
    double t0 = now();
    simdjson::padded_string json;
    auto load_error = simdjson::padded_string::load(argv[1]).get(json);
    if (load_error) {
        std::fprintf(stderr, "%s: %s\n", argv[1], simdjson::error_message(load_error));
        return 1;
    }
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    auto error = parser.parse(json).get(doc);
    if (error) {
        std::fprintf(stderr, "%s: %s\n", argv[1], simdjson::error_message(error));
        return 1;
    }
    double t1 = now();
    uint64_t elements = 0;
    simdjson::dom::object obj;
    if (!doc.get_object().get(obj))
        for (auto field : obj) {
            simdjson::dom::array arr;
            if (!field.value.get_array().get(arr))
                elements += arr.size();
        }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::printf("RESULT task=simdjson_dom wall_s=%.6f rss_kb=%ld bytes=%zu elements=%llu\n",
                t1 - t0, ru.ru_maxrss, json.size(), (unsigned long long)elements);
    return 0;
}
