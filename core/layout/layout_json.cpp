// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/layout/layout_json.h"

#include "core/base/text.h"
#include "core/kernel/topology.h"

#include <algorithm>
#include <set>

namespace coresteer::layout {

using nlohmann::json;

std::string IrqSelector::display() const {
    return index == 0 ? action : action + " #" + std::to_string(index);
}

namespace {

json maskJson(const CpuMask& m) {
    return m.toList();
}

// A strict reader: every key must be known, every value of the expected type.
class Reader {
public:
    explicit Reader(std::string* error) : m_error(error) {}
    bool ok() const { return m_ok; }

    bool fail(const std::string& where, const std::string& what) {
        if (m_ok && m_error)
            *m_error = where + ": " + what;
        m_ok = false;
        return false;
    }
    bool object(const json& j, const std::string& where, std::initializer_list<const char*> keys) {
        if (!j.is_object())
            return fail(where.empty() ? "document" : where, "expected an object");
        const std::set<std::string> known(keys.begin(), keys.end());
        for (const auto& [k, v] : j.items())
            if (!known.count(k))
                return fail(where.empty() ? k : where + "." + k, "unknown key");
        return true;
    }
    std::optional<std::string> string(const json& j, const char* key, const std::string& where,
                                      bool required) {
        if (!j.contains(key)) {
            if (required)
                fail(join(where, key), "missing");
            return std::nullopt;
        }
        if (!j[key].is_string()) {
            fail(join(where, key), "expected a string");
            return std::nullopt;
        }
        return j[key].get<std::string>();
    }
    std::optional<std::int64_t> integer(const json& j, const char* key, const std::string& where,
                                        bool required, std::int64_t lo, std::int64_t hi) {
        if (!j.contains(key)) {
            if (required)
                fail(join(where, key), "missing");
            return std::nullopt;
        }
        if (!j[key].is_number_integer()) {
            fail(join(where, key), "expected a whole number");
            return std::nullopt;
        }
        const auto v = j[key].get<std::int64_t>();
        if (v < lo || v > hi) {
            fail(join(where, key),
                 "out of range " + std::to_string(lo) + ".." + std::to_string(hi));
            return std::nullopt;
        }
        return v;
    }
    std::optional<bool> boolean(const json& j, const char* key, const std::string& where) {
        if (!j.contains(key))
            return std::nullopt;
        if (!j[key].is_boolean()) {
            fail(join(where, key), "expected true or false");
            return std::nullopt;
        }
        return j[key].get<bool>();
    }
    std::optional<CpuMask> mask(const json& j, const char* key, const std::string& where,
                                bool required) {
        const auto s = string(j, key, where, required);
        if (!s)
            return std::nullopt;
        std::string err;
        auto m = CpuMask::fromList(*s, &err);
        if (!m)
            fail(join(where, key), "expected a CPU list such as \"0-3,6\": " + err);
        return m;
    }
    static std::string join(const std::string& where, const char* key) {
        return where.empty() ? key : where + "." + key;
    }

private:
    std::string* m_error;
    bool m_ok = true;
};

// The oldest version that holds all of `l`, so that older readers still read what they can:
// 5 with channel counts or an RSS spread, 4 with rx-frames, 3 with TX worker CPUs or threaded
// NAPI switched, 2 with cpufreq governors, else 1.
int schemaVersion(const Layout& l) {
    if (std::any_of(l.interfaces.begin(), l.interfaces.end(),
                    [](const InterfaceTarget& t) { return t.channels.any() || t.rss; }))
        return 5;
    if (std::any_of(l.interfaces.begin(), l.interfaces.end(),
                    [](const InterfaceTarget& t) { return t.rxFrames.has_value(); }))
        return 4;
    if (std::any_of(l.interfaces.begin(), l.interfaces.end(), [](const InterfaceTarget& t) {
            return t.txWorkerCpus.has_value() || t.threaded.has_value();
        }))
        return 3;
    return l.governors.empty() ? 1 : 2;
}

bool checkSchema(Reader& r, const json& j, const char* expected) {
    if (!j.is_object())
        return r.fail("document", "expected an object");
    const auto s = r.string(j, "schema", "", true);
    if (!s)
        return false;
    const std::string want = expected;
    const auto slash = want.rfind('/');
    if (s->substr(0, slash + 1) != want.substr(0, slash + 1))
        return r.fail("schema", "'" + *s + "' is not a " + want.substr(0, slash) + " file");
    const auto version = std::atoi(s->c_str() + slash + 1);
    const auto supported = std::atoi(want.c_str() + slash + 1);
    if (version > supported)
        return r.fail("schema", "'" + *s +
                                    "' was written by a newer coresteer (this one reads up to " +
                                    want + ")");
    if (version < 1)
        return r.fail("schema", "bad version in '" + *s + "'");
    return true;
}

std::optional<Layout> readLayout(Reader& r, const json& j, const std::string& where,
                                 bool topLevel) {
    if (topLevel) {
        if (!checkSchema(r, j, kLayoutSchema) ||
            !r.object(j, where,
                      {"schema", "irqs", "rx_queues", "tx_queues", "interfaces", "cpufreq",
                       "rps_sock_flow_entries", "notes"}))
            return std::nullopt;
    } else if (!r.object(j, where,
                         {"irqs", "rx_queues", "tx_queues", "interfaces", "cpufreq",
                          "rps_sock_flow_entries", "notes"})) {
        return std::nullopt;
    }
    Layout l;
    auto array = [&](const char* key) -> const json* {
        if (!j.contains(key))
            return nullptr;
        if (!j[key].is_array()) {
            r.fail(Reader::join(where, key), "expected a list");
            return nullptr;
        }
        return &j[key];
    };
    if (const auto* a = array("irqs")) {
        for (std::size_t i = 0; i < a->size() && r.ok(); ++i) {
            const auto w = Reader::join(where, "irqs") + "[" + std::to_string(i) + "]";
            const auto& e = (*a)[i];
            if (!r.object(e, w, {"action", "index", "cpus", "why"}))
                break;
            IrqTarget t;
            t.irq.action = r.string(e, "action", w, true).value_or("");
            t.irq.index = static_cast<int>(r.integer(e, "index", w, false, 0, 4095).value_or(0));
            t.cpus = r.mask(e, "cpus", w, true).value_or(CpuMask{});
            t.why = r.string(e, "why", w, false).value_or("");
            if (r.ok() && t.irq.action.empty())
                r.fail(w + ".action", "empty");
            l.irqs.push_back(std::move(t));
        }
    }
    if (const auto* a = array("rx_queues")) {
        for (std::size_t i = 0; i < a->size() && r.ok(); ++i) {
            const auto w = Reader::join(where, "rx_queues") + "[" + std::to_string(i) + "]";
            const auto& e = (*a)[i];
            if (!r.object(e, w, {"interface", "queue", "rps_cpus", "rps_flow_cnt", "why"}))
                break;
            RxQueueTarget t;
            t.interface = r.string(e, "interface", w, true).value_or("");
            t.queue = static_cast<int>(r.integer(e, "queue", w, true, 0, 65535).value_or(0));
            t.rpsCpus = r.mask(e, "rps_cpus", w, false);
            if (auto v = r.integer(e, "rps_flow_cnt", w, false, 0, 1 << 30))
                t.rpsFlowCnt = static_cast<std::uint32_t>(*v);
            t.why = r.string(e, "why", w, false).value_or("");
            l.rx.push_back(std::move(t));
        }
    }
    if (const auto* a = array("tx_queues")) {
        for (std::size_t i = 0; i < a->size() && r.ok(); ++i) {
            const auto w = Reader::join(where, "tx_queues") + "[" + std::to_string(i) + "]";
            const auto& e = (*a)[i];
            if (!r.object(e, w, {"interface", "queue", "xps_cpus", "why"}))
                break;
            TxQueueTarget t;
            t.interface = r.string(e, "interface", w, true).value_or("");
            t.queue = static_cast<int>(r.integer(e, "queue", w, true, 0, 65535).value_or(0));
            t.xpsCpus = r.mask(e, "xps_cpus", w, true).value_or(CpuMask{});
            t.why = r.string(e, "why", w, false).value_or("");
            l.tx.push_back(std::move(t));
        }
    }
    if (const auto* a = array("interfaces")) {
        for (std::size_t i = 0; i < a->size() && r.ok(); ++i) {
            const auto w = Reader::join(where, "interfaces") + "[" + std::to_string(i) + "]";
            const auto& e = (*a)[i];
            if (!r.object(e, w,
                          {"interface", "napi_cpus", "tx_worker_cpus", "threaded", "rx_usecs",
                           "rx_frames", "channels", "rss", "why"}))
                break;
            InterfaceTarget t;
            t.interface = r.string(e, "interface", w, true).value_or("");
            t.napiCpus = r.mask(e, "napi_cpus", w, false);
            t.txWorkerCpus = r.mask(e, "tx_worker_cpus", w, false);
            t.threaded = r.boolean(e, "threaded", w);
            if (auto v = r.integer(e, "rx_usecs", w, false, 0, 1'000'000))
                t.rxUsecs = static_cast<std::uint32_t>(*v);
            if (auto v = r.integer(e, "rx_frames", w, false, 0, 65'535))
                t.rxFrames = static_cast<std::uint32_t>(*v);
            if (e.contains("channels") &&
                r.object(e["channels"], Reader::join(w, "channels"), {"rx", "tx", "combined"})) {
                const auto cw = Reader::join(w, "channels");
                for (const auto& [key, field] :
                     {std::pair{"rx", &ChannelCounts::rx}, std::pair{"tx", &ChannelCounts::tx},
                      std::pair{"combined", &ChannelCounts::combined}})
                    if (auto v = r.integer(e["channels"], key, cw, false, 1, 65'535))
                        t.channels.*field = static_cast<std::uint32_t>(*v);
                if (r.ok() && !t.channels.any())
                    r.fail(cw, "names no channel count (rx, tx or combined)");
            }
            if (auto s = r.string(e, "rss", w, false)) {
                t.rss = RssSpread::parse(*s);
                if (!t.rss)
                    r.fail(Reader::join(w, "rss"),
                           "expected \"default\", \"equal N\" or \"weight W0 W1 ...\" (whole "
                           "numbers up to 65535, at most 4096 weights, not all 0), not '" +
                               text::printable(*s, 40) + "'");
            }
            t.why = r.string(e, "why", w, false).value_or("");
            l.interfaces.push_back(std::move(t));
        }
    }
    if (const auto* a = array("cpufreq")) {
        for (std::size_t i = 0; i < a->size() && r.ok(); ++i) {
            const auto w = Reader::join(where, "cpufreq") + "[" + std::to_string(i) + "]";
            const auto& e = (*a)[i];
            if (!r.object(e, w, {"policy", "governor", "why"}))
                break;
            GovernorTarget t;
            t.policy = static_cast<int>(r.integer(e, "policy", w, true, 0, 8192).value_or(0));
            t.governor = r.string(e, "governor", w, true).value_or("");
            t.why = r.string(e, "why", w, false).value_or("");
            if (r.ok() && !validGovernorName(t.governor))
                r.fail(w + ".governor",
                       "'" + text::printable(t.governor, 40) +
                           "' is not a governor name (lower-case letters, digits, '_' and '-')");
            l.governors.push_back(std::move(t));
        }
    }
    if (auto v = r.integer(j, "rps_sock_flow_entries", where, false, 0, 1 << 30))
        l.rpsSockFlowEntries = static_cast<std::uint32_t>(*v);
    if (const auto* a = array("notes")) {
        for (std::size_t i = 0; i < a->size() && r.ok(); ++i) {
            if (!(*a)[i].is_string())
                r.fail(Reader::join(where, "notes") + "[" + std::to_string(i) + "]",
                       "expected a string");
            else
                l.notes.push_back((*a)[i].get<std::string>());
        }
    }
    if (!r.ok())
        return std::nullopt;
    return l;
}

template <typename T>
std::optional<T> parseText(const std::string& text, std::string* error,
                           std::optional<T> (*from)(const json&, std::string*)) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        if (error)
            *error = "not valid JSON at byte " + std::to_string(e.byte) + ": " + e.what();
        return std::nullopt;
    }
    return from(j, error);
}

} // namespace

json toJson(const Layout& l) {
    json j;
    j["schema"] = "coresteer.layout/" + std::to_string(schemaVersion(l));
    json irqs = json::array(), rx = json::array(), tx = json::array();
    for (const auto& t : l.irqs) {
        json e{{"action", t.irq.action}, {"cpus", maskJson(t.cpus)}};
        if (t.irq.index)
            e["index"] = t.irq.index;
        if (!t.why.empty())
            e["why"] = t.why;
        irqs.push_back(e);
    }
    for (const auto& t : l.rx) {
        json e{{"interface", t.interface}, {"queue", t.queue}};
        if (t.rpsCpus)
            e["rps_cpus"] = maskJson(*t.rpsCpus);
        if (t.rpsFlowCnt)
            e["rps_flow_cnt"] = *t.rpsFlowCnt;
        if (!t.why.empty())
            e["why"] = t.why;
        rx.push_back(e);
    }
    for (const auto& t : l.tx) {
        json e{{"interface", t.interface}, {"queue", t.queue}, {"xps_cpus", maskJson(t.xpsCpus)}};
        if (!t.why.empty())
            e["why"] = t.why;
        tx.push_back(e);
    }
    j["irqs"] = irqs;
    j["rx_queues"] = rx;
    j["tx_queues"] = tx;
    if (!l.interfaces.empty()) {
        json ifs = json::array();
        for (const auto& t : l.interfaces) {
            json e{{"interface", t.interface}};
            if (t.napiCpus)
                e["napi_cpus"] = maskJson(*t.napiCpus);
            if (t.txWorkerCpus)
                e["tx_worker_cpus"] = maskJson(*t.txWorkerCpus);
            if (t.threaded)
                e["threaded"] = *t.threaded;
            if (t.rxUsecs)
                e["rx_usecs"] = *t.rxUsecs;
            if (t.rxFrames)
                e["rx_frames"] = *t.rxFrames;
            if (t.channels.any()) {
                json c = json::object();
                if (t.channels.rx)
                    c["rx"] = *t.channels.rx;
                if (t.channels.tx)
                    c["tx"] = *t.channels.tx;
                if (t.channels.combined)
                    c["combined"] = *t.channels.combined;
                e["channels"] = c;
            }
            if (t.rss)
                e["rss"] = t.rss->toString();
            if (!t.why.empty())
                e["why"] = t.why;
            ifs.push_back(e);
        }
        j["interfaces"] = ifs;
    }
    if (!l.governors.empty()) {
        json gs = json::array();
        for (const auto& t : l.governors) {
            json e{{"policy", t.policy}, {"governor", t.governor}};
            if (!t.why.empty())
                e["why"] = t.why;
            gs.push_back(e);
        }
        j["cpufreq"] = gs;
    }
    if (l.rpsSockFlowEntries)
        j["rps_sock_flow_entries"] = *l.rpsSockFlowEntries;
    j["notes"] = l.notes;
    return j;
}

json toJson(const Preset& p) {
    auto layout = toJson(p.layout);
    layout.erase("schema");
    return json{{"schema", "coresteer.preset/" + std::to_string(schemaVersion(p.layout))},
                {"name", p.name},
                {"board", p.board},
                {"note", p.note},
                {"layout", layout}};
}

std::optional<Layout> layoutFromJson(const json& j, std::string* error) {
    Reader r(error);
    return readLayout(r, j, "", true);
}

std::optional<Preset> presetFromJson(const json& j, std::string* error) {
    Reader r(error);
    if (!checkSchema(r, j, kPresetSchema) ||
        !r.object(j, "", {"schema", "name", "board", "note", "layout"}))
        return std::nullopt;
    Preset p;
    p.name = r.string(j, "name", "", true).value_or("");
    p.board = r.string(j, "board", "", true).value_or("");
    p.note = r.string(j, "note", "", false).value_or("");
    if (!r.ok())
        return std::nullopt;
    if (!j.contains("layout")) {
        r.fail("layout", "missing");
        return std::nullopt;
    }
    auto l = readLayout(r, j["layout"], "layout", false);
    if (!l)
        return std::nullopt;
    p.layout = std::move(*l);
    return p;
}

std::optional<Layout> parseLayout(const std::string& text, std::string* error) {
    return parseText<Layout>(text, error, &layoutFromJson);
}

std::optional<Preset> parsePreset(const std::string& text, std::string* error) {
    return parseText<Preset>(text, error, &presetFromJson);
}

} // namespace coresteer::layout
