// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Receive queues as the NIC spreads them: channel counts (`ethtool -l`), the RSS indirection
// table (`ethtool -x`) and the root qdisc of each interface (`tc qdisc show`, else `ip link
// show`). Their text is the tools', not the kernel's; anything else in it is warned about with
// its file and line and left as unknown.
#include "core/base/text.h"
#include "core/model/snapshot_detail.h"

#include <algorithm>
#include <numeric>

namespace coresteer {

namespace {

constexpr std::uint32_t kMaxRing = 65535;               // ethtool's u32, kept to what NICs have
constexpr std::size_t kMaxTable = std::size_t{1} << 16; // entries of an indirection table

} // namespace

std::optional<std::uint32_t> Channels::rxRings() const {
    if (!combined.current && !rx.current)
        return std::nullopt;
    return combined.current.value_or(0) + rx.current.value_or(0);
}

bool NetInterface::multiQueueQdisc() const {
    return rootQdisc == "mq" || rootQdisc == "cake_mq" || rootQdisc == "mqprio" ||
           rootQdisc == "taprio";
}

std::string RssSpread::toString() const {
    if (equal)
        return "equal " + std::to_string(equal);
    if (weights.empty())
        return "default";
    std::string s = "weight";
    for (auto w : weights)
        s += " " + std::to_string(w);
    return s;
}

std::optional<RssSpread> RssSpread::parse(std::string_view t) {
    const auto words = text::split(text::trim(t), ' ');
    if (words.empty() || words.size() > 4097)
        return std::nullopt;
    RssSpread s;
    if (words[0] == "default")
        return words.size() == 1 ? std::optional(s) : std::nullopt;
    std::uint64_t sum = 0;
    std::vector<std::uint32_t> numbers;
    for (std::size_t i = 1; i < words.size(); ++i) {
        const auto n = text::parseU64(words[i]);
        if (!n || *n > kMaxRing)
            return std::nullopt;
        numbers.push_back(static_cast<std::uint32_t>(*n));
        sum += *n;
    }
    if (words[0] == "equal" && numbers.size() == 1 && numbers[0] > 0)
        s.equal = numbers[0];
    else if (words[0] == "weight" && !numbers.empty() && sum > 0)
        s.weights = std::move(numbers);
    else
        return std::nullopt;
    return s;
}

std::vector<std::uint32_t> RssSpread::tableFor(std::size_t size, std::uint32_t rings) const {
    std::vector<std::uint32_t> t(size);
    if (weights.empty()) {
        const std::uint32_t n = equal ? equal : std::max<std::uint32_t>(rings, 1);
        for (std::size_t i = 0; i < size; ++i)
            t[i] = static_cast<std::uint32_t>(i % n);
        return t;
    }
    // As ethtool fills it: ring j takes the entries below size * (w0 + ... + wj) / sum.
    std::uint64_t sum = 0;
    for (auto w : weights)
        sum += w;
    if (sum == 0 || sum > size) // ethtool refuses both
        return {};
    std::uint64_t partial = 0;
    std::size_t j = 0;
    bool started = false;
    for (std::size_t i = 0; i < size; ++i) {
        while (!started || i >= size * partial / sum) {
            if (started)
                ++j;
            started = true;
            if (j >= weights.size())
                return {}; // weights that do not cover the table: ethtool refuses them
            partial += weights[j];
        }
        t[i] = static_cast<std::uint32_t>(j);
    }
    return t;
}

std::optional<RssSpread> RssSpread::of(const std::vector<std::uint32_t>& table,
                                       std::uint32_t rings) {
    if (table.empty())
        return std::nullopt;
    const auto top = *std::max_element(table.begin(), table.end());
    RssSpread d;
    if (rings > 0 && d.tableFor(table.size(), rings) == table)
        return d;
    RssSpread e;
    e.equal = top + 1;
    if (e.tableFor(table.size(), rings) == table)
        return e;
    if (!std::is_sorted(table.begin(), table.end()))
        return std::nullopt;
    std::vector<std::uint32_t> counts(top + 1, 0);
    for (auto v : table)
        ++counts[v];
    // The smallest weights first: each run's count over the shortest run's, rounded, times
    // 1 to 64; then the counts over their common divisor, then the counts themselves.
    std::uint64_t shortest = 0;
    std::uint32_t g = 0;
    for (auto c : counts) {
        if (c && (!shortest || c < shortest))
            shortest = c;
        g = std::gcd(g, c);
    }
    const auto fits = [&](std::vector<std::uint32_t> candidate) -> std::optional<RssSpread> {
        RssSpread w;
        w.weights = std::move(candidate);
        if (w.tableFor(table.size(), rings) == table)
            return w;
        return std::nullopt;
    };
    for (std::uint64_t m = 1; m <= 64; ++m) {
        std::vector<std::uint32_t> rounded;
        for (auto c : counts)
            rounded.push_back(static_cast<std::uint32_t>((2 * c * m + shortest) / (2 * shortest)));
        if (auto w = fits(std::move(rounded)))
            return w;
    }
    for (const std::uint32_t div : {g, 1u}) {
        std::vector<std::uint32_t> divided;
        for (auto c : counts)
            divided.push_back(c / div);
        if (auto w = fits(std::move(divided)))
            return w;
    }
    return std::nullopt;
}

namespace detail {

Channels parseChannels(std::string_view text, Diagnostics& diag, const std::string& file) {
    Channels c;
    enum { None, Max, Current } section = None;
    int lineNo = 0;
    for (const auto rawLine : text::split(text, '\n')) {
        ++lineNo;
        const auto line = text::trim(rawLine);
        if (text::startsWith(line, "Pre-set maximums:")) {
            section = Max;
            continue;
        }
        if (text::startsWith(line, "Current hardware settings:")) {
            section = Current;
            continue;
        }
        const auto colon = line.find(':');
        if (section == None || colon == std::string_view::npos)
            continue;
        const auto key = line.substr(0, colon);
        Channels::Count* count = key == "RX"         ? &c.rx
                                 : key == "TX"       ? &c.tx
                                 : key == "Other"    ? &c.other
                                 : key == "Combined" ? &c.combined
                                                     : nullptr;
        if (!count)
            continue;
        const auto value = text::trim(line.substr(colon + 1));
        if (value == "n/a")
            continue;
        const auto n = text::parseU64(value);
        if (!n || *n > kMaxRing) {
            diag.warn(file, lineNo,
                      std::string(key) + " is '" + text::printable(value, 40) +
                          "', not a channel count ethtool prints; left as unknown");
            continue;
        }
        (section == Max ? count->max : count->current) = static_cast<std::uint32_t>(*n);
    }
    // ethtool before 5.x prints 0 for a kind the driver does not have.
    for (auto* k : {&c.rx, &c.tx, &c.other, &c.combined})
        if (k->max == 0u)
            *k = {};
    return c;
}

RssTable parseRssTable(std::string_view text, Diagnostics& diag, const std::string& file) {
    RssTable t;
    int lineNo = 0;
    bool inTable = false;
    for (const auto rawLine : text::split(text, '\n')) {
        ++lineNo;
        const auto line = text::trim(rawLine);
        if (text::startsWith(line, "RX flow hash indirection table for ")) {
            // "... for eth0 with 4 RX ring(s):": the name may hold anything, the end may not.
            const auto with = line.rfind(" with ");
            const auto rings =
                with == std::string_view::npos
                    ? std::nullopt
                    : text::parseU64(line.substr(with + 6, line.find(' ', with + 6) - (with + 6)));
            if (!rings || *rings > kMaxRing) {
                diag.warn(file, lineNo,
                          "not the ring count ethtool prints ('" + text::printable(line, 80) +
                              "'); no indirection table read");
                return {};
            }
            t.rings = static_cast<std::uint32_t>(*rings);
            inTable = true;
            continue;
        }
        if (!inTable || line.empty())
            continue;
        if (line == "Operation not supported")
            return {t.rings, {}};
        const auto colon = line.find(':');
        const auto index =
            colon == std::string_view::npos ? std::nullopt : text::parseU64(line.substr(0, colon));
        if (!index) { // "RSS hash key:" and what follows
            inTable = false;
            continue;
        }
        if (*index != t.table.size()) {
            diag.warn(file, lineNo,
                      "the table goes on at entry " + std::to_string(*index) + ", not " +
                          std::to_string(t.table.size()) + "; no indirection table read");
            return {};
        }
        for (const auto word : text::split(line.substr(colon + 1), ' ')) {
            if (word.empty())
                continue;
            const auto v = text::parseU64(word);
            if (!v || *v > kMaxRing || t.table.size() >= kMaxTable) {
                diag.warn(file, lineNo,
                          "'" + text::printable(word, 40) +
                              "' is no ring number, or the table is too long; no indirection "
                              "table read");
                return {};
            }
            t.table.push_back(static_cast<std::uint32_t>(*v));
        }
    }
    return t;
}

std::optional<Channels> readChannels(BundleReader& r, const std::string& name) {
    return readEthtool<Channels>(r, name, "channels", parseChannels);
}

std::optional<RssTable> readRssTable(BundleReader& r, const std::string& name) {
    return readEthtool<RssTable>(r, name, "rxfh", parseRssTable);
}

void readRootQdiscs(BundleReader& r, Snapshot& snap) {
    const auto set = [&](std::string_view dev, std::string_view kind) {
        for (auto& n : snap.interfaces)
            if (n.name == dev && n.rootQdisc.empty())
                n.rootQdisc = text::printable(kind, 16);
    };
    if (const auto tc = r.text("tc/qdisc")) {
        // "qdisc mq 0: dev eth0 root", "qdisc fq_codel 0: dev eth0 parent :1 limit 10240p ..."
        int lineNo = 0;
        for (const auto line : text::split(*tc, '\n')) {
            ++lineNo;
            if (line.empty() || line.front() == ' ' || line.front() == '\t')
                continue;
            const auto w = text::split(line, ' ');
            if (w.size() < 6 || w[0] != "qdisc" || w[3] != "dev") {
                r.diag().warn("tc/qdisc", lineNo,
                              "not a qdisc line ('" + text::printable(line, 60) + "')");
                continue;
            }
            if (w[5] == "root")
                set(w[4], w[1]);
        }
        return;
    }
    if (const auto ip = r.text("ip/link")) {
        // "2: eth0: <BROADCAST,UP> mtu 1500 qdisc mq state UP ...", "3: wan.7@eth1: ..."
        for (const auto line : text::split(*ip, '\n')) {
            if (line.empty() || line.front() == ' ' || line.front() == '\t')
                continue;
            const auto first = line.find(": ");
            const auto second =
                first == std::string_view::npos ? first : line.find(": ", first + 2);
            const auto q = line.find(" qdisc ");
            if (second == std::string_view::npos || q == std::string_view::npos)
                continue;
            auto dev = line.substr(first + 2, second - first - 2);
            dev = dev.substr(0, dev.find('@'));
            auto kind = line.substr(q + 7);
            set(dev, kind.substr(0, kind.find(' ')));
        }
    }
}

} // namespace detail

} // namespace coresteer
