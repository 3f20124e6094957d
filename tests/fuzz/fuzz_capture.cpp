// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A capture from anyone (a bug report, a recording's snapshot): read, written back the same,
// and laid out in a directory of its own. Or, when the first byte is odd, a bundle of fuzzed
// paths, kinds and link targets, as anyone may pass materialize(). Either way nothing reaches
// beyond the directory: a directory beside it keeps the one file it had, and nothing else
// appears beside them.
#include "core/collect/capture.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace coresteer;
namespace fs = std::filesystem;

namespace {

const fs::path& base() {
    static const fs::path b = [] {
        auto p =
            fs::temp_directory_path() / ("coresteer-fuzz-capture-" + std::to_string(::getpid()));
        fs::remove_all(p);
        fs::create_directories(p / "outside");
        std::ofstream(p / "outside" / "target") << "untouched";
        std::atexit([] { fs::remove_all(base()); });
        return p;
    }();
    return b;
}

void expectNothingOutside() {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(base())) {
        ++n;
        if (e.path().filename() != "outside" && e.path().filename() != "root")
            std::abort();
    }
    std::size_t m = 0;
    for (const auto& e : fs::directory_iterator(base() / "outside")) {
        ++m;
        if (e.path().filename() != "target" || e.is_symlink() || !e.is_regular_file())
            std::abort();
    }
    std::ifstream in(base() / "outside" / "target");
    std::string content;
    std::getline(in, content);
    if (n > 2 || m != 1 || content != "untouched")
        std::abort();
}

// A path of names that are mostly harmless and sometimes not.
std::string fuzzedPath(FuzzedDataProvider& fdp) {
    static const char* const names[] = {"a", "b", "l", "sys", "..", ".", "", "x\n", "outside"};
    std::string p = fdp.ConsumeBool() && fdp.ConsumeBool() ? "/" : "";
    const int n = fdp.ConsumeIntegralInRange(1, 5);
    for (int i = 0; i < n; ++i) {
        p += (i ? "/" : "");
        p += fdp.ConsumeBool() ? fdp.PickValueInArray(names) : fdp.ConsumeRandomLengthString(8);
    }
    return p;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const auto root = base() / "root";
    fs::remove_all(root);
    std::string error;
    if (data[0] % 2 == 0) {
        const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
        const auto b = readCapture(text, &error);
        if (b) {
            const auto again = readCapture(writeCapture(*b), &error);
            if (!again || again->entries() != b->entries())
                std::abort();
            (void)layOutCapture(text, root, &error);
        }
    } else {
        FuzzedDataProvider fdp(data + 1, size - 1);
        FileBundle b;
        const int n = fdp.ConsumeIntegralInRange(0, 12);
        for (int i = 0; i < n && fdp.remaining_bytes() > 0; ++i) {
            const auto kind = fdp.PickValueInArray(
                {BundleEntry::Kind::File, BundleEntry::Kind::Link, BundleEntry::Kind::Dir});
            std::string content =
                kind == BundleEntry::Kind::Link && fdp.ConsumeBool()
                    ? (fdp.ConsumeBool() ? (base() / "outside").string() : fuzzedPath(fdp))
                    : fdp.ConsumeRandomLengthString(32);
            b.add(fuzzedPath(fdp), {kind, std::move(content)});
        }
        (void)materialize(b, root, &error);
    }
    expectNothingOutside();
    fs::remove_all(root);
    return 0;
}
