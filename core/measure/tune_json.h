// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A tune's result as JSON (coresteer.tune/2), the one form the CLI's --json prints, the
// recording keeps (its "tune" section) and `recording summary` reads back; and the table a person
// reads, made from that JSON, so that a live run and a replayed recording print the same.
//
//   {"schema": "coresteer.tune/2", "objective": "throughput"|"latency"|"headroom",
//    "margin_pct": 3, "latency_margin_ms": 5,
//    "plan": {"looks": [9, 12, 15, 18], "alpha": 0.05, "look": 0, "level": 0.000625},
//    "blocks": 9, "seconds": 612.4, "block_seconds": 68.0, "stopped": "decided",
//    "stop_reason": "...", "baseline_restored": true, "read_back": "...", "seed": 42,
//    "candidates": [{"name", "source" (current, plan, alternative, preset, file, edit), "why",
//                    "changes", "layout", "left_out" (null, or why),
//                    "trials": [{"block", "repeat", "start", "end",
//                                "download": {"bps", "latency_increase_ms", "latency_p90_ms"},
//                                "upload": {...}, "probes": [...], "cores": [{"cpu", "busy",
//                                "softirq"}], "busiest_core", "busiest_core_share"}],
//                    "download": {"bps": MED, "latency_increase_ms": MED}, "upload": {...},
//                    "latency_p90_ms": MED, "busiest_core_share": MED,
//                    "gain_vs_baseline" (not the baseline's): {"throughput": GAIN,
//                        "download": {"bps": GAIN, "latency_increase_ms": GAIN}, "upload": {...},
//                        "latency_ms": GAIN, "latency_p90_ms": GAIN, "busiest_core_share": GAIN},
//                    "qualifies", "reason"}],
//    "outcome": "winner"|"tie"|"no-winner"|"open", "decided": bool,
//    "winner": name or null (only when decided), "leader": name or null, "tied": [names],
//    "resolution": {"gain", "gain_pct"} or null, "bottleneck": "router"|"elsewhere"|null,
//    "baseline_busiest_core_share": 0..1 or null, "verdict": "..."}
//   MED: a candidate's own trials: {"median", "ci95": [lo, hi] or null (fewer than 6 trials),
//        "coverage" (the interval's exact coverage, at least 0.95), "n"}; null where nothing
//        was measured.
//   GAIN: against the baseline of the same block, signed so that positive is better (more
//        throughput, less latency, a less busy core): {"mean", "ci95": [lo, hi] or null,
//        "gain_pct", "ci95_pct", "margin", "better", "worse", "n"}. "ci95" is the 95 %
//        simultaneous interval (every candidate, every look of the plan); percentages are of
//        the baseline's mean. "throughput" is the objective's share: 0.05 is 5 %.
#pragma once

#include "core/measure/tuner.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace coresteer::measure {

nlohmann::json tuneJson(const TuneResult& result, Objective objective);

// The table and the verdict for a person, from tuneJson()'s document (or one read from a file:
// every value is checked and made printable; nullopt with *error when it is not a tune's). A
// tune recorded by an earlier version (coresteer.tune/1) prints its verdict alone.
std::optional<std::string> tuneText(const nlohmann::json& tune, std::string* error);

} // namespace coresteer::measure
