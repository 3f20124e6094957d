// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/shell.h"

#include <random>

namespace coresteer {

std::string shellQuote(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\0')
            continue;
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    out += "'";
    return out;
}

std::string randomToken(std::string_view prefix) {
    std::random_device rd;
    static const char* hex = "0123456789abcdef";
    std::string t(prefix);
    for (int i = 0; i < 32; ++i)
        t += hex[rd() % 16];
    return t;
}

} // namespace coresteer
