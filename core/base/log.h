// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Diagnostic logging by category, without Qt: core names what it does; the front ends decide
// where it goes. The GUI forwards each category to a Qt logging category of the same name
// (ui/logging.h: QT_LOGGING_RULES and `coresteer --verbose` apply); coresteer-cli --verbose
// prints them on stderr.
//
//   coresteer.ssh      connecting, host keys, authentication, commands and their sizes
//   coresteer.collect  snapshots: what was read, how much, how long
//   coresteer.apply    apply, confirm and revert: scripts, targets, outcomes
//   coresteer.persist  persist and unpersist
//   coresteer.live     the sampler: start, stop, reconnects
//   coresteer.fleet    several routers at once
#pragma once

#include <atomic>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>

namespace coresteer::log {

struct Category {
    const char* name;
    std::atomic<bool> enabled{false};
};

extern Category ssh, collect, apply, persist, live, fleet;

// Every category, for the front ends to map and switch.
Category* const* categories(); // null-terminated

using Sink = std::function<void(const Category&, std::string_view message)>;
// Where messages go (thread-safe; none by default). Enabling a category is separate.
void setSink(Sink sink);
void write(const Category& category, std::string_view message);

// Streams the arguments into one message, only when the category is on.
template <typename... Args> void debug(const Category& c, const Args&... args) {
    if (!c.enabled.load(std::memory_order_relaxed))
        return;
    std::ostringstream s;
    (s << ... << args);
    write(c, s.str());
}

} // namespace coresteer::log
