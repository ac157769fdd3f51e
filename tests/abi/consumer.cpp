// A C++ consumer of libiprof, built by tests/abi/test_consumers.py against
// the installed library with pkg-config (dynamically and statically): the
// headers must work from C++ (extern "C", no C-only constructs).
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <iprof/iprof.h>
#include <iprof/edit.h>
#include <iprof/stream.h>

namespace {

struct ModelFree {
    void operator()(iprof_model *m) const { iprof_model_free(m); }
};
struct ReaderFree {
    void operator()(iprof_reader *r) const { iprof_reader_free(r); }
};
struct WriterFree {
    void operator()(iprof_writer *w) const { iprof_writer_free(w); }
};
using Model = std::unique_ptr<iprof_model, ModelFree>;
using Reader = std::unique_ptr<iprof_reader, ReaderFree>;
using Writer = std::unique_ptr<iprof_writer, WriterFree>;

int failures = 0;

void check(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "consumer++: check failed: %s\n", what);
        failures++;
    }
}

extern "C" int collect_type(int64_t, const char *name, size_t len, void *payload)
{
    static_cast<std::vector<std::string> *>(payload)->emplace_back(name, len);
    return 0;
}

}  // namespace

int main()
{
    std::printf("consumer++: compiled against %s, running with libiprof %s\n",
                IPROF_VERSION_STRING, iprof_version_string());
    iprof_model *raw = nullptr;
    check(iprof_model_new(&raw, nullptr) == IPROF_OK, "model_new");
    Model model(raw);
    if (!model)
        return 1;
    const std::string names[] = {"int", "java.lang.String", "Main"};
    for (int64_t id = 0; id < 3; id++) {
        const std::string &n = names[id];
        check(iprof_model_add_type(model.get(), id, n.data(), n.size(), nullptr) == IPROF_OK,
              "add_type");
    }
    const int64_t sig[] = {2, 0, 1};
    check(iprof_model_add_method(model.get(), 5, "length", 6, sig, 3, nullptr) == IPROF_OK,
          "add_method");

    iprof_write_options opts = IPROF_WRITE_OPTIONS_INIT;
    opts.flags = IPROF_WRITE_PRETTY;
    iprof_writer *w = nullptr;
    const iprof_sink sink = IPROF_SINK_BUFFER_INIT;
    check(iprof_writer_new(&w, &sink, &opts) == IPROF_OK, "writer_new");
    Writer writer(w);
    if (!writer)
        return 1;
    check(iprof_writer_write_model(writer.get(), model.get()) == IPROF_OK, "write_model");
    const void *data = nullptr;
    size_t len = 0;
    check(iprof_writer_buffer(writer.get(), &data, &len) == IPROF_OK, "writer_buffer");
    std::string text(static_cast<const char *>(data), len);
    check(text.find("\"java.lang.String\"") != std::string::npos, "type name in output");

    iprof_reader *r = nullptr;
    check(iprof_reader_new(&r, nullptr) == IPROF_OK, "reader_new");
    Reader reader(r);
    if (!reader)
        return 1;
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_type = collect_type;
    std::vector<std::string> seen;
    const iprof_source src = IPROF_SOURCE_BUFFER_INIT(text.data(), text.size());
    check(iprof_reader_read(reader.get(), &src, &cb, &seen) == IPROF_OK, "read");
    check(seen.size() == 3 && seen[1] == "java.lang.String", "types read back");

    char buf[64];
    const iprof_method *m = iprof_model_method_by_id(model.get(), 5);
    check(m != nullptr, "method_by_id");
    if (m) {
        iprof_model_method_describe(model.get(), m, buf, sizeof buf);
        check(std::strcmp(buf, "Main.length") == 0, "method_describe");
    }
    if (failures)
        return 1;
    std::printf("consumer++: ok\n");
    return 0;
}
