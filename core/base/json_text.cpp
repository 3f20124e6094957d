// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/json_text.h"

namespace coresteer {

std::string jsonText(const nlohmann::json& j, int indent) {
    // The replace handler makes dump() total: it throws only on invalid UTF-8, which it replaces.
    const auto raw = j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
    // dump() escapes C0 controls itself. What it leaves as it is can only stand inside strings
    // (JSON's own syntax is ASCII), and the text is valid UTF-8 now, so a C2 byte starts a
    // character of U+0080-U+00BF and E2 80 A8/A9 are U+2028/U+2029: each is swapped for its
    // escape, which reads back as the same character.
    static const char* hex = "0123456789abcdef";
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const auto c = static_cast<unsigned char>(raw[i]);
        const auto next = [&](std::size_t k) {
            return i + k < raw.size() ? static_cast<unsigned char>(raw[i + k]) : 0;
        };
        unsigned code = 0;
        std::size_t len = 0;
        if (c == 0x7f) {
            code = 0x7f;
            len = 1;
        } else if (c == 0xc2 && next(1) >= 0x80 && next(1) <= 0x9f) {
            code = next(1);
            len = 2;
        } else if (c == 0xe2 && next(1) == 0x80 && (next(2) == 0xa8 || next(2) == 0xa9)) {
            code = 0x2000 | (next(2) - 0x80);
            len = 3;
        }
        if (len == 0) {
            out += raw[i];
            continue;
        }
        out += "\\u";
        for (int shift = 12; shift >= 0; shift -= 4)
            out += hex[(code >> shift) & 15];
        i += len - 1;
    }
    return out;
}

} // namespace coresteer
