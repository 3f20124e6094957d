// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Firmware fixtures (tests/fixtures/firmware/<name>/, SPEC.md there): a firmware's own files laid
// over a board tree, and the EXPECT file that says what the snapshot, the plan and persist do
// on it.
#pragma once

#include "tests/support/board_expect.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace coresteer::test {

inline std::filesystem::path firmwareDir(const std::string& name) {
    return std::filesystem::path(CORESTEER_FIXTURES) / "firmware" / name;
}

inline std::vector<std::string> firmwareNames() {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(
             std::filesystem::path(CORESTEER_FIXTURES) / "firmware"))
        if (e.is_directory() && std::filesystem::exists(e.path() / "EXPECT"))
            out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// One line of a firmware's EXPECT: its key and the words after it (the rest of the line for
// keys whose last word may hold spaces: see SPEC.md).
struct FirmwareFact {
    std::string key;
    std::vector<std::string> words;
    std::string rest; // everything after the key, trimmed
    int line = 0;
};

struct FirmwareExpect {
    std::string base;               // the board tree it runs on
    std::vector<std::string> parts; // files several firmwares share (parts/NAME), in order
    std::vector<FirmwareFact> facts;
    std::vector<const FirmwareFact*> all(const std::string& key) const {
        std::vector<const FirmwareFact*> out;
        for (const auto& f : facts)
            if (f.key == key)
                out.push_back(&f);
        return out;
    }
    std::string one(const std::string& key) const {
        const auto v = all(key);
        return v.empty() ? std::string() : v.front()->rest;
    }
    bool has(const std::string& key) const { return !all(key).empty(); }
};

inline FirmwareExpect readFirmwareExpect(const std::string& name) {
    FirmwareExpect x;
    std::ifstream in(firmwareDir(name) / "EXPECT");
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        std::istringstream ls(line);
        FirmwareFact f;
        f.line = n;
        if (!(ls >> f.key) || f.key[0] == '#')
            continue;
        std::string w;
        while (ls >> w)
            f.words.push_back(w);
        const auto at = line.find(f.key) + f.key.size();
        const auto from = line.find_first_not_of(" \t", at);
        f.rest = from == std::string::npos ? "" : line.substr(from);
        if (f.key == "base")
            x.base = f.rest;
        else if (f.key == "part")
            x.parts.push_back(f.rest);
        x.facts.push_back(std::move(f));
    }
    return x;
}

// The firmware laid over a copy of its board at `dest`: the board's tree, then the files of
// each part it names and of its own root/, each in place of what was there (links copied as
// links).
inline void layFirmware(const std::string& name, const std::filesystem::path& dest) {
    namespace fs = std::filesystem;
    const auto x = readFirmwareExpect(name);
    copyBoard(x.base, dest);
    std::vector<fs::path> layers;
    for (const auto& p : x.parts)
        layers.push_back(firmwareDir("parts") / p);
    layers.push_back(firmwareDir(name) / "root");
    for (const auto& l : layers)
        fs::copy(l, dest,
                 fs::copy_options::recursive | fs::copy_options::copy_symlinks |
                     fs::copy_options::overwrite_existing);
}

} // namespace coresteer::test
