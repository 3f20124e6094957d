// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ssh/target.h"

#include "core/base/text.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <glob.h>

namespace coresteer::ssh {

std::string Target::display() const {
    std::string s;
    if (!user.empty())
        s += user + "@";
    s += host.find(':') != std::string::npos ? "[" + host + "]" : host;
    if (port > 0)
        s += ":" + std::to_string(port);
    return s;
}

namespace {

bool validHost(std::string_view h) {
    if (h.empty() || h.size() > 253 || h.front() == '-')
        return false;
    for (char c : h) {
        const bool ok = text::isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        c == '.' || c == '-' || c == '_' || c == ':' || c == '%';
        if (!ok)
            return false;
    }
    return true;
}

bool validUser(std::string_view u) {
    if (u.empty() || u.size() > 64 || u.front() == '-')
        return false;
    for (char c : u) {
        const bool ok = text::isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        c == '.' || c == '-' || c == '_' || c == '$';
        if (!ok)
            return false;
    }
    return true;
}

std::optional<Target> fail(std::string* error, std::string msg) {
    if (error)
        *error = std::move(msg);
    return std::nullopt;
}

} // namespace

std::optional<Target> parseTarget(std::string_view text, std::string* error) {
    const std::string original(text);
    if (text::startsWith(text, "ssh://"))
        text.remove_prefix(6);
    while (!text.empty() && text.back() == '/')
        text.remove_suffix(1);
    Target t;
    if (const auto at = text.rfind('@'); at != std::string_view::npos) {
        t.user = std::string(text.substr(0, at));
        text.remove_prefix(at + 1);
        if (!validUser(t.user))
            return fail(error, "bad user name in '" + text::printable(original) + "'");
    }
    std::string_view host = text, port;
    if (text::startsWith(text, "[")) {
        const auto close = text.find(']');
        if (close == std::string_view::npos)
            return fail(error, "missing ']' in '" + text::printable(original) + "'");
        host = text.substr(1, close - 1);
        const auto rest = text.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':')
                return fail(error,
                            "unexpected text after ']' in '" + text::printable(original) + "'");
            port = rest.substr(1);
        }
    } else if (const auto colon = text.find(':'); colon != std::string_view::npos) {
        if (text.find(':', colon + 1) != std::string_view::npos)
            return fail(error, "put an IPv6 address in brackets: ssh://user@[::1]:22");
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
    }
    if (!validHost(host))
        return fail(error, "bad host name in '" + text::printable(original) + "'");
    t.host = std::string(host);
    if (!port.empty()) {
        const auto p = text::parseU64(port);
        if (!p || *p == 0 || *p > 65535)
            return fail(error, "bad port in '" + text::printable(original) + "'");
        t.port = static_cast<int>(*p);
    }
    return t;
}

namespace {

// ssh_config words: whitespace separated, "quoted" where they hold spaces; "key=value" too.
std::vector<std::string> configWords(const std::string& line) {
    std::vector<std::string> words;
    std::string cur;
    bool quoted = false, any = false;
    for (char c : line) {
        if (c == '"') {
            quoted = !quoted;
            any = true;
        } else if (!quoted && (c == ' ' || c == '\t' || (c == '=' && words.empty()))) {
            if (any)
                words.push_back(cur);
            cur.clear();
            any = false;
        } else {
            cur += c;
            any = true;
        }
    }
    if (any)
        words.push_back(cur);
    return words;
}

void readHosts(const std::string& file, const std::string& sshDir, int depth,
               std::vector<std::string>& out) {
    if (depth > 8)
        return;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        const auto w = configWords(line);
        if (w.empty() || w[0].front() == '#')
            continue;
        std::string key = w[0];
        std::transform(key.begin(), key.end(), key.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (key == "host") {
            for (std::size_t i = 1; i < w.size(); ++i) {
                const auto& h = w[i];
                if (h.find_first_of("*?!") != std::string::npos || !parseTarget(h))
                    continue;
                if (std::find(out.begin(), out.end(), h) == out.end())
                    out.push_back(h);
            }
        } else if (key == "include") {
            for (std::size_t i = 1; i < w.size(); ++i) {
                std::string pat = w[i];
                if (text::startsWith(pat, "~/")) {
                    const char* home = std::getenv("HOME");
                    pat = std::string(home ? home : "") + pat.substr(1);
                } else if (pat.front() != '/') {
                    pat = sshDir + "/" + pat;
                }
                glob_t g{};
                if (::glob(pat.c_str(), 0, nullptr, &g) == 0)
                    for (std::size_t k = 0; k < g.gl_pathc; ++k)
                        readHosts(g.gl_pathv[k], sshDir, depth + 1, out);
                ::globfree(&g);
            }
        }
    }
}

} // namespace

std::vector<std::string> sshConfigHosts(const std::string& configFile, const std::string& sshDir) {
    std::vector<std::string> out;
    readHosts(configFile, sshDir, 0, out);
    return out;
}

} // namespace coresteer::ssh
