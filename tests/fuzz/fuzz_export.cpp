// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What carries router and preset text into other languages: the Ansible playbook of a preset
// with fuzzed names, notes and reasons must stay printable ASCII and newlines (no byte a YAML
// reader takes for a line break), and the terminal's escaping must leave no control and no
// invalid UTF-8.
#include "core/base/utf8.h"
#include "core/layout/fleet.h"

#include <fuzzer/FuzzedDataProvider.h>

using namespace coresteer;
using namespace coresteer::layout;

namespace {

void check(bool ok) {
    if (!ok)
        __builtin_trap();
}

bool printableAscii(const std::string& s) {
    for (unsigned char c : s)
        if (c != '\n' && (c < 0x20 || c >= 0x7f))
            return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    Preset p;
    p.name = in.ConsumeRandomLengthString(200);
    p.board = in.ConsumeRandomLengthString(100);
    p.note = in.ConsumeRandomLengthString(200);
    p.layout.notes.push_back(in.ConsumeRandomLengthString(200));
    const int irqs = in.ConsumeIntegralInRange(0, 8);
    for (int i = 0; i < irqs; ++i)
        p.layout.irqs.push_back(
            {{in.ConsumeRandomLengthString(64), in.ConsumeIntegralInRange(0, 3)},
             *CpuMask::fromList(std::to_string(in.ConsumeIntegralInRange(0, 7))),
             in.ConsumeRandomLengthString(64)});
    const int queues = in.ConsumeIntegralInRange(0, 8);
    for (int i = 0; i < queues; ++i)
        p.layout.rx.push_back({in.ConsumeRandomLengthString(20), in.ConsumeIntegralInRange(0, 7),
                               *CpuMask::fromList("1"), std::nullopt,
                               in.ConsumeRandomLengthString(64)});
    const int governors = in.ConsumeIntegralInRange(0, 3);
    for (int i = 0; i < governors; ++i)
        p.layout.governors.push_back({in.ConsumeIntegralInRange(0, 8),
                                      in.ConsumeRandomLengthString(40),
                                      in.ConsumeRandomLengthString(64)});
    FleetOptions o;
    std::string error;
    if (const auto y = makeAnsiblePlaybook(p, o, &error)) {
        check(printableAscii(*y));
        check(y->find("\n- name: ") == y->rfind("\n- name: ")); // one play
    }
    const auto rest = in.ConsumeRemainingBytesAsString();
    check(printableAscii(utf8::yamlQuoted(rest)));
    const auto safe = utf8::terminalSafe(rest);
    check(utf8::valid(safe));
    for (std::size_t i = 0; i < safe.size();) {
        const long cp = utf8::next(safe, i);
        check(!(cp < 0x20 && cp != '\n' && cp != '\t') && cp != 0x7f && !(cp >= 0x80 && cp < 0xa0));
    }
    return 0;
}
