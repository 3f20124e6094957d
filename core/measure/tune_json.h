// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A tune's result as JSON (coresteer.tune/1), the one form the CLI's --json prints, the
// recording keeps (its "tune" section) and `recording summary` reads back; and the table a person
// reads, made from that JSON, so that a live run and a replayed recording print the same.
//
//   {"schema": "coresteer.tune/1", "objective": "throughput", "blocks": 6, "seconds": 212.4,
//    "stopped": "decided", "stop_reason": "...", "baseline_restored": true, "seed": 42,
//    "candidates": [{"name", "source" (current, plan, alternative, preset, file, edit), "why",
//                    "changes", "layout", "left_out" (null, or why),
//                    "trials": [{"block", "repeat", "start", "end",
//                                "download": {"bps", "latency_increase_ms", "latency_p90_ms"},
//                                "upload": {...}, "probes": [...], "cores": [{"cpu", "busy",
//                                "softirq"}], "busiest_core"}],
//                    "download": {"bps": EST, "latency_increase_ms": EST}, "upload": {...},
//                    "gain_vs_baseline": {"download": {...}, "upload": {...}} (not the
//                    baseline's), "wins", "reason"}],
//    "noise_floor": {"download": {"bps", "latency_increase_ms"}, "upload": {...}},
//    "winner": name or null, "verdict": "...", "confidence": "low"|"medium"|"high"}
//   EST: {"median", "ci95": [lo, hi], "n"}, or null where nothing was measured. A gain is
//   signed so that positive is better: more throughput, or less latency (ms saved).
#pragma once

#include "core/measure/tuner.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace coresteer::measure {

nlohmann::json tuneJson(const TuneResult& result, Objective objective);

// The table and the verdict for a person, from tuneJson()'s document (or one read from a file:
// every value is checked and made printable; nullopt with *error when it is not a tune's).
std::optional<std::string> tuneText(const nlohmann::json& tune, std::string* error);

} // namespace coresteer::measure
