// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// export ansible: a preset as a playbook for a fleet.
#include "cli/verbs.h"

#include "cli/inventory.h"
#include "cli/terminal_prompter.h"
#include "core/base/json_text.h"
#include "core/base/log.h"
#include "core/base/text.h"
#include "core/base/utf8.h"
#include "core/collect/capture.h"
#include "core/layout/apply.h"
#include "core/layout/fleet.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/live/recording.h"
#include "core/live/source.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "core/router/router.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>
#include <tuple>

namespace coresteer::cli {

using namespace coresteer::layout;

namespace fs = std::filesystem;

int exportCommand(const std::string& presetFile, const std::string& output, const FleetOptions& fo,
                  std::ostream& out, std::ostream& err) {
    if (presetFile.empty())
        return usageError(err, "export ansible needs --preset FILE");
    std::optional<Preset> preset;
    const auto layout = readLayoutFile(presetFile, err, &preset);
    if (!layout)
        return 2;
    if (!preset) {
        preset = Preset{};
        preset->name = fs::path(presetFile).stem().string();
        preset->layout = *layout;
    }
    std::string error;
    const auto fleet = makeFleetScripts(*preset, fo, &error);
    const auto playbook = fleet ? makeAnsiblePlaybook(*preset, fo, &error) : std::nullopt;
    if (!playbook) {
        err << "coresteer-cli: " << presetFile << ": " << error << "\n";
        return 2;
    }
    for (const auto& k : fleet->skipped)
        err << "coresteer-cli: " << presetFile << ": " << k.target << ": left out: " << k.reason
            << "\n";
    if (output.empty()) {
        out << *playbook;
    } else if (!text::writeFileAtomic(output, *playbook, &error)) {
        err << "coresteer-cli: " << error << "\n";
        return 2;
    } else {
        err << "Wrote " << output << ": " << fleet->layout.irqs.size() << " IRQs, "
            << fleet->layout.rx.size() << " receive and " << fleet->layout.tx.size()
            << " transmit queues for the hosts of '" << fo.group << "'\n";
    }
    return fleet->skipped.empty() ? 0 : 1;
}

} // namespace coresteer::cli
