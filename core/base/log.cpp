// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/log.h"

#include <memory>
#include <mutex>

namespace coresteer::log {

Category ssh{"coresteer.ssh"}, collect{"coresteer.collect"}, apply{"coresteer.apply"},
    persist{"coresteer.persist"}, live{"coresteer.live"}, fleet{"coresteer.fleet"};

namespace {

std::mutex g_mutex;
std::shared_ptr<const Sink> g_sink;

} // namespace

Category* const* categories() {
    static Category* const all[] = {&ssh, &collect, &apply, &persist, &live, &fleet, nullptr};
    return all;
}

void setSink(Sink sink) {
    const std::lock_guard lock(g_mutex);
    g_sink = sink ? std::make_shared<const Sink>(std::move(sink)) : nullptr;
}

void write(const Category& category, std::string_view message) {
    std::shared_ptr<const Sink> sink;
    {
        const std::lock_guard lock(g_mutex);
        sink = g_sink;
    }
    if (sink)
        (*sink)(category, message);
}

} // namespace coresteer::log
