// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Layouts and presets as JSON files: versioned, and read strictly (unknown keys, wrong types
// and newer versions are errors that name the key).
#pragma once

#include "core/layout/layout.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace coresteer::layout {

// The newest version each reader takes. Version 2 added `cpufreq`, version 3 an interface's
// `tx_worker_cpus` and `threaded`; a file is written with the oldest version that holds what it
// has, so that older readers still read a layout without these.
inline constexpr const char* kLayoutSchema = "coresteer.layout/5";
inline constexpr const char* kPresetSchema = "coresteer.preset/5";

struct Preset {
    std::string name;
    std::string board; // board_name it was made on: "friendlyarm,nanopi-r6s"
    std::string note;  // what it does, its source, published before/after numbers
    Layout layout;
};

nlohmann::json toJson(const Layout& layout);
nlohmann::json toJson(const Preset& preset);

// nullopt with a message naming the key ("rx_queues[2].rps_cpus: expected a CPU list").
std::optional<Layout> layoutFromJson(const nlohmann::json& j, std::string* error);
std::optional<Preset> presetFromJson(const nlohmann::json& j, std::string* error);

// From text (a file's content); also reports JSON syntax errors with their byte position.
std::optional<Layout> parseLayout(const std::string& text, std::string* error);
std::optional<Preset> parsePreset(const std::string& text, std::string* error);

} // namespace coresteer::layout
