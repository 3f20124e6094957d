// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/layout/builtin_presets.h"

#include <string_view>
#include <utility>

namespace coresteer::layout {

namespace presets {
// builtin_presets_data.cpp, made by cmake/EmbedFiles.cmake from resources/presets/.
extern const std::string_view kBpiR4Mt7988NoWifiJson;
extern const std::string_view kBpiR4Mt7988WifiJson;
extern const std::string_view kIpq4019Acrh17ForwardingJson;
extern const std::string_view kNanopiR4sStarwhizJson;
extern const std::string_view kNanopiR6sOption1Json;
extern const std::string_view kNanopiR6sOption2aJson;
extern const std::string_view kNanopiR6sOption2bJson;
} // namespace presets

const std::vector<BuiltinPreset>& builtinPresets() {
    static const std::vector<BuiltinPreset> all = [] {
        const std::pair<const char*, std::string_view> files[] = {
            {"bpi-r4-mt7988-no-wifi.json", presets::kBpiR4Mt7988NoWifiJson},
            {"bpi-r4-mt7988-wifi.json", presets::kBpiR4Mt7988WifiJson},
            {"ipq4019-acrh17-forwarding.json", presets::kIpq4019Acrh17ForwardingJson},
            {"nanopi-r4s-starwhiz.json", presets::kNanopiR4sStarwhizJson},
            {"nanopi-r6s-option1.json", presets::kNanopiR6sOption1Json},
            {"nanopi-r6s-option2a.json", presets::kNanopiR6sOption2aJson},
            {"nanopi-r6s-option2b.json", presets::kNanopiR6sOption2bJson},
        };
        std::vector<BuiltinPreset> out;
        for (const auto& [name, text] : files) {
            std::string error;
            // Our own files, checked by the tests (BuiltinPresets.EveryOneReads): one that does
            // not read is left out rather than taking the program down.
            if (auto p = parsePreset(std::string(text), &error))
                out.push_back({name, std::move(*p)});
        }
        return out;
    }();
    return all;
}

std::vector<BuiltinPreset> builtinPresetsFor(const std::string& boardName) {
    std::vector<BuiltinPreset> out;
    if (boardName.empty())
        return out;
    for (const auto& p : builtinPresets())
        if (p.preset.board == boardName)
            out.push_back(p);
    return out;
}

} // namespace coresteer::layout
