// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// cpufreq policies: read from /sys/devices/system/cpu/cpufreq/policyN on copies of the board
// fixtures, shown in the snapshot, and named by the planner where a slow governor or a capped
// frequency holds back the CPUs that carry the layout's network work.
#include "core/layout/planner.h"
#include "core/model/snapshot.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace coresteer;
using namespace coresteer::test;

namespace {

// One policy over CPUs 0-3, as the kernel lays it out (frequencies in kHz).
void policy(const Router& r, const std::string& governor, const std::string& maxKHz = "1800000") {
    const std::string d = "sys/devices/system/cpu/cpufreq/policy0/";
    r.write(d + "related_cpus", "0 1 2 3\n");
    r.write(d + "scaling_governor", governor + "\n");
    r.write(d + "scaling_available_governors",
            "ondemand userspace powersave performance schedutil \n");
    r.write(d + "scaling_min_freq", "437500\n");
    r.write(d + "scaling_max_freq", maxKHz + "\n");
    r.write(d + "scaling_cur_freq", "437500\n");
    r.write(d + "cpuinfo_min_freq", "437500\n");
    r.write(d + "cpuinfo_max_freq", "1800000\n");
}

std::vector<std::string> governorNotes(const Snapshot& snap) {
    std::vector<std::string> out;
    for (const auto& n : layout::plan(snap).notes)
        if (n.find("cpufreq policy") != std::string::npos)
            out.push_back(n);
    return out;
}

} // namespace

TEST(Governor, PoliciesAreReadWithTheirGovernorAndFrequencies) {
    Router r("bpi-r4");
    policy(r, "powersave");
    const auto snap = r.snapshot();
    ASSERT_EQ(snap.topology.policies.size(), 1u);
    const auto& p = snap.topology.policies[0];
    EXPECT_EQ(p.id, 0);
    EXPECT_EQ(p.cpus.toList(), "0-3");
    EXPECT_EQ(p.governor, "powersave");
    EXPECT_EQ(p.available, (std::vector<std::string>{"ondemand", "userspace", "powersave",
                                                     "performance", "schedutil"}));
    EXPECT_EQ(p.minKHz, 437500u);
    EXPECT_EQ(p.maxKHz, 1800000u);
    EXPECT_EQ(p.hwMaxKHz, 1800000u);
    EXPECT_EQ(p.slowBecause(), "the powersave governor keeps it at its lowest frequency (437 MHz)");
    const auto j = toJson(snap);
    EXPECT_EQ(j["topology"]["cpufreq"][0]["governor"], "powersave");
    EXPECT_EQ(j["topology"]["cpufreq"][0]["slow"], p.slowBecause());
    const auto text = toText(snap);
    EXPECT_NE(text.find("policy0   0-3       powersave    437-1800 MHz, now 437  SLOW: "),
              std::string::npos)
        << text;
}

// The planner names the policy, the CPUs of the layout it holds back, and what to set.
TEST(Governor, ThePlannerNamesASlowGovernorWhereTheNetworkWorkIs) {
    Router r("bpi-r4");
    policy(r, "powersave");
    auto notes = governorNotes(r.snapshot());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("the powersave governor keeps it at its lowest frequency"),
              std::string::npos);
    EXPECT_NE(notes[0].find("echo schedutil > /sys/devices/system/cpu/cpufreq/policy0/"
                            "scaling_governor"),
              std::string::npos)
        << notes[0];
    // schedutil at full range: nothing to say. Capped: the cap is named.
    policy(r, "schedutil");
    EXPECT_TRUE(governorNotes(r.snapshot()).empty());
    policy(r, "schedutil", "1200000");
    notes = governorNotes(r.snapshot());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("scaling_max_freq caps it at 1200 MHz of 1800 MHz"), std::string::npos)
        << notes[0];
    EXPECT_NE(notes[0].find("raise scaling_max_freq"), std::string::npos);
}

// What a router says of its governors is data: a name that is no governor's is not kept.
TEST(Governor, HostileGovernorNamesAreNotKept) {
    Router r("bpi-r4");
    policy(r, "perf\x1b]0;owned\x07");
    r.write("sys/devices/system/cpu/cpufreq/policy0/scaling_available_governors",
            "performance $(reboot) sched\x1b[2Jutil\n");
    const auto snap = r.snapshot();
    ASSERT_EQ(snap.topology.policies.size(), 1u);
    EXPECT_EQ(snap.topology.policies[0].governor, "");
    EXPECT_EQ(snap.topology.policies[0].available, std::vector<std::string>{"performance"});
}
