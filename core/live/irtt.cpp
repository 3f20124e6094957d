// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/irtt.h"

#include "core/base/text.h"
#include "core/live/loadgen.h"
#include "core/live/recording.h"
#include "core/live/router_ping.h"

namespace coresteer::live {

bool parseIrttTarget(std::string_view text, IrttTarget& target, std::string* error) {
    LoadSpec spec;
    spec.port = IrttTarget::kDefaultPort;
    std::string why;
    if (!parseLoadServer(text::trim(text), spec, &why)) {
        if (error)
            *error = "irtt server '" + text::printable(text, 60) + "': " +
                     why.substr(why.find("': ") == std::string::npos ? 0 : why.find("': ") + 3);
        return false;
    }
    target.host = spec.server;
    target.port = spec.port;
    return true;
}

namespace {

std::string hostPort(const IrttTarget& t) {
    const bool v6 = t.host.find(':') != std::string::npos;
    return (v6 ? "[" + t.host + "]" : t.host) + ":" + std::to_string(t.port);
}

} // namespace

std::vector<std::string> irttArguments(const IrttTarget& target, int seconds) {
    return {"client",        "-i", "100ms", "-d", std::to_string(std::max(1, seconds)) + "s", "--",
            hostPort(target)};
}

std::string irttProbe(const IrttTarget& target) {
    return probeName("irtt:" + target.host);
}
std::string irttUpProbe(const IrttTarget& target) {
    return probeName("irtt-up:" + target.host);
}
std::string irttDownProbe(const IrttTarget& target) {
    return probeName("irtt-down:" + target.host);
}

std::optional<double> parseGoDurationMs(std::string_view text) {
    struct Unit {
        std::string_view suffix;
        double ms;
    };
    static constexpr Unit units[] = {{"ns", 1e-6}, {"\xc2\xb5s", 1e-3}, {"\xce\xbcs", 1e-3},
                                     {"us", 1e-3}, {"ms", 1},           {"s", 1e3}};
    for (const auto& u : units) {
        if (text.size() <= u.suffix.size() ||
            text.substr(text.size() - u.suffix.size()) != u.suffix)
            continue;
        const auto v = text::parseDouble(text.substr(0, text.size() - u.suffix.size()));
        if (!v)
            return std::nullopt;
        return *v * u.ms;
    }
    return std::nullopt;
}

std::vector<IrttReader::Reply> IrttReader::feed(std::string_view data) {
    std::vector<Reply> out;
    forEachProbeLine(m_buf, data, [&](std::string_view l) { line(l, out); });
    return out;
}

void IrttReader::line(std::string_view l, std::vector<Reply>& out) {
    if (l.size() > 512 || l.substr(0, 4) != "seq=")
        return;
    std::optional<std::uint64_t> seq;
    std::optional<double> rtt, rd, sd;
    text::Tokenizer words(l);
    for (std::string_view w; words.next(w);) {
        const auto eq = w.find('=');
        if (eq == std::string_view::npos)
            continue;
        const auto key = w.substr(0, eq), value = w.substr(eq + 1);
        if (key == "seq")
            seq = text::parseU64(value);
        else if (key == "rtt")
            rtt = parseGoDurationMs(value);
        else if (key == "rd")
            rd = parseGoDurationMs(value);
        else if (key == "sd")
            sd = parseGoDurationMs(value);
    }
    if (!seq || !rtt || *rtt < 0 || *rtt > 600000)
        return;
    const auto lost = m_gaps.lostBefore(*seq);
    if (!lost)
        return; // a duplicate or a late reply: counted already
    out.insert(out.end(), *lost, Reply{});
    Reply r;
    r.rttMs = rtt;
    // The clocks' offset, taken out once: the first reply's one-way delays are half its trip.
    auto shifted = [&](std::optional<double> d, std::optional<double>& shift) {
        if (!d || std::abs(*d) > 1e9)
            return std::optional<double>();
        if (!shift)
            shift = *rtt / 2 - *d;
        return std::optional<double>(std::max(0.0, *d + *shift));
    };
    r.upMs = shifted(sd, m_upShift);
    r.downMs = shifted(rd, m_downShift);
    out.push_back(r);
}

} // namespace coresteer::live
