// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in presets (resources/presets/*.json, embedded at build time), for the code that
// has no Qt resources: the tuner's candidates and the CLI. The GUI's Presets menu reads the same
// files from its resources.
#pragma once

#include "core/layout/layout_json.h"

#include <string>
#include <vector>

namespace coresteer::layout {

struct BuiltinPreset {
    std::string file; // "nanopi-r6s-option1.json"
    Preset preset;
};

// Every built-in preset, in file name order (each is read once and checked by the tests).
const std::vector<BuiltinPreset>& builtinPresets();
// Those made on `boardName` (the snapshot's board_name).
std::vector<BuiltinPreset> builtinPresetsFor(const std::string& boardName);

} // namespace coresteer::layout
