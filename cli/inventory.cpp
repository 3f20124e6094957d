// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/inventory.h"

#include "core/base/text.h"

#include <algorithm>
#include <map>
#include <set>

namespace coresteer {

namespace {

using Vars = std::map<std::string, std::string>;

struct Group {
    std::vector<std::string> hosts;
    std::vector<std::string> children;
    Vars vars;
};

// Splits "name k=v k='v w'" into words; quotes group, and are removed.
std::optional<std::vector<std::string>> words(std::string_view line) {
    std::vector<std::string> out;
    std::string cur;
    bool in = false;
    char quote = 0;
    for (const char c : line) {
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                cur += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            in = true;
        } else if (c == ' ' || c == '\t') {
            if (in)
                out.push_back(cur);
            cur.clear();
            in = false;
        } else if (c == '#' && !in) {
            break; // a comment after the values
        } else {
            cur += c;
            in = true;
        }
    }
    if (quote)
        return std::nullopt;
    if (in)
        out.push_back(cur);
    return out;
}

bool validName(const std::string& n) {
    return !n.empty() && n.size() <= 253 &&
           std::none_of(n.begin(), n.end(), [](unsigned char c) { return c < ' ' || c == 0x7f; });
}

std::string makeTarget(const std::string& name, const Vars& v) {
    const auto get = [&](const char* k) {
        const auto it = v.find(k);
        return it == v.end() ? std::string() : it->second;
    };
    const auto host = get("ansible_host"), port = get("ansible_port"), user = get("ansible_user");
    if (name.rfind("ssh://", 0) == 0 || (host.empty() && port.empty() && user.empty()))
        return name;
    std::string h = host.empty() ? name : host;
    if (h.find(':') != std::string::npos && h.front() != '[')
        h = "[" + h + "]";
    return "ssh://" + (user.empty() ? "" : user + "@") + h + (port.empty() ? "" : ":" + port);
}

} // namespace

std::optional<std::vector<InventoryHost>> readInventory(const std::string& textIn,
                                                        const std::string& group,
                                                        const std::string& file,
                                                        std::string* error) {
    std::map<std::string, Group> groups;
    std::vector<std::string> order; // hosts, first mention first
    std::map<std::string, Vars> hostVars;
    std::string section = "ungrouped", kind = "hosts";
    int lineNo = 0;
    auto fail = [&](const std::string& msg) {
        if (error)
            *error = file + (lineNo ? ":" + std::to_string(lineNo) : std::string()) + ": " + msg;
        return std::nullopt;
    };
    text::LineReader lines(textIn);
    std::string_view raw;
    while (lines.next(raw)) {
        ++lineNo;
        const auto line = text::trim(raw);
        if (line.empty() || line.front() == '#' || line.front() == ';')
            continue;
        if (lineNo == 1 && (line == "---" || line.find(':') == line.size() - 1))
            return fail("this looks like a YAML inventory; coresteer reads the INI format");
        if (line.front() == '[') {
            if (line.back() != ']')
                return fail("a section header ends with ']'");
            std::string h(line.substr(1, line.size() - 2));
            const auto colon = h.find(':');
            kind = colon == std::string::npos ? "hosts" : h.substr(colon + 1);
            section = h.substr(0, colon);
            if (kind != "hosts" && kind != "vars" && kind != "children")
                return fail("unknown section kind ':" + text::printable(kind, 40) + "'");
            if (!validName(section) || section.find(' ') != std::string::npos)
                return fail("'" + text::printable(section, 80) + "' is not a group name");
            groups[section];
            continue;
        }
        const auto w = words(line);
        if (!w || w->empty())
            return fail("a quote is not closed");
        if (kind == "vars") {
            for (const auto& kv : *w) {
                const auto eq = kv.find('=');
                if (eq == std::string::npos || eq == 0)
                    return fail("expected name=value, found '" + text::printable(kv, 80) + "'");
                groups[section].vars[kv.substr(0, eq)] = kv.substr(eq + 1);
            }
            continue;
        }
        const auto& name = w->front();
        if (!validName(name))
            return fail("'" + text::printable(name, 80) + "' is not a host name");
        if (kind == "children") {
            if (w->size() != 1)
                return fail("a children section names one group per line");
            groups[section].children.push_back(name);
            continue;
        }
        if (name.find('[') != std::string::npos && name.rfind("ssh://", 0) != 0)
            return fail("host ranges such as '" + text::printable(name, 80) +
                        "' are not supported: name each router");
        if (!hostVars.count(name))
            order.push_back(name);
        auto& hv = hostVars[name];
        for (std::size_t i = 1; i < w->size(); ++i) {
            const auto& kv = (*w)[i];
            const auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0)
                return fail("expected name=value, found '" + text::printable(kv, 80) + "'");
            hv[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
        groups[section].hosts.push_back(name);
    }

    // The selected group's hosts, through its children; and each host's groups, in file order.
    std::set<std::string> wanted;
    const bool all = group.empty() || group == "all";
    if (!all) {
        if (!groups.count(group)) {
            lineNo = 0;
            return fail("no group '" + text::printable(group, 80) + "'");
        }
        std::vector<std::string> todo{group};
        std::set<std::string> seen;
        while (!todo.empty()) {
            const auto g = todo.back();
            todo.pop_back();
            if (!seen.insert(g).second || !groups.count(g))
                continue;
            wanted.insert(groups[g].hosts.begin(), groups[g].hosts.end());
            todo.insert(todo.end(), groups[g].children.begin(), groups[g].children.end());
        }
    }
    std::vector<InventoryHost> out;
    for (const auto& name : order) {
        if (!all && !wanted.count(name))
            continue;
        Vars v = groups["all"].vars;
        for (const auto& [gname, g] : groups)
            if (gname != "all" && std::find(g.hosts.begin(), g.hosts.end(), name) != g.hosts.end())
                for (const auto& [k, val] : g.vars)
                    v[k] = val;
        for (const auto& [k, val] : hostVars[name])
            v[k] = val;
        InventoryHost h;
        h.name = name;
        h.target = makeTarget(name, v);
        if (const auto it = v.find("coresteer_root"); it != v.end())
            h.root = it->second;
        if (const auto it = v.find("ansible_ssh_private_key_file"); it != v.end())
            h.identity = it->second;
        out.push_back(std::move(h));
    }
    if (out.empty()) {
        lineNo = 0;
        return fail(all ? "no host" : "group '" + text::printable(group, 80) + "' has no host");
    }
    return out;
}

} // namespace coresteer
