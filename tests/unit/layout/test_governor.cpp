// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// cpufreq policies: read from /sys/devices/system/cpu/cpufreq/policyN on copies of the board
// fixtures, shown in the snapshot, and named by the planner where a slow governor or a capped
// frequency holds back the CPUs that carry the layout's network work. The planner sets a better
// governor there; apply writes it with the rest and its revert restores it; persist sets it at
// every boot, and unpersist leaves it as it is then.
#include "core/layout/apply.h"
#include "core/layout/layout_json.h"
#include "core/layout/planner.h"
#include "core/model/snapshot.h"
#include "core/model/snapshot_json.h"
#include "core/model/snapshot_text.h"
#include "tests/support/cpufreq_policy.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <thread>

using namespace coresteer;
using namespace coresteer::test;

namespace {

// One policy over CPUs 0-3.
void policy(const Router& r, const std::string& governor, const std::string& maxKHz = "1800000",
            const std::string& available = "ondemand userspace powersave performance schedutil") {
    writeCpufreqPolicy(r.root, governor, available, maxKHz);
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
    EXPECT_NE(notes[0].find("this layout sets the schedutil governor there"), std::string::npos)
        << notes[0];
    // schedutil at full range: nothing to say. Capped: the cap is named.
    policy(r, "schedutil");
    EXPECT_TRUE(governorNotes(r.snapshot()).empty());
    policy(r, "schedutil", "1200000");
    notes = governorNotes(r.snapshot());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("scaling_max_freq caps it at 1200 MHz of 1800 MHz"), std::string::npos)
        << notes[0];
    EXPECT_NE(notes[0].find("is the owner's setting: raise it"), std::string::npos);
}

// What a router says of its governors is data: a name that is no governor's is not kept.
TEST(Governor, HostileGovernorNamesAreNotKept) {
    Router r("bpi-r4");
    policy(r, "perf\x1b]0;owned\x07");
    r.write("sys/devices/system/cpu/cpufreq/policy0/scaling_available_governors",
            "performance $(reboot) sched\x1b[2Jutil 'perf\"x sched\xe2\x80\xa8util \xff\xfe " +
                std::string(200, 'a') + "\n");
    const auto snap = r.snapshot();
    ASSERT_EQ(snap.topology.policies.size(), 1u);
    EXPECT_EQ(snap.topology.policies[0].governor, "");
    EXPECT_EQ(snap.topology.policies[0].available, std::vector<std::string>{"performance"});
    // Nothing of it reaches a plan, a script or the JSON.
    const auto j = toJson(snap).dump();
    EXPECT_EQ(j.find("reboot"), std::string::npos);
    EXPECT_EQ(j.find("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), std::string::npos);
    for (const auto& g : layout::plan(snap).governors)
        EXPECT_EQ(g.governor, "performance");
}

namespace {

std::string governorOf(const Router& r) {
    auto s = slurp(r.root / "sys/devices/system/cpu/cpufreq/policy0/scaling_governor");
    return s.substr(0, s.find('\n'));
}

} // namespace

// The planner sets schedutil where the kernel has it (it follows the load), else performance,
// and nothing where it has neither or where the policy is not slow; a cap alone is the owner's.
TEST(Governor, ThePlannerSetsABetterGovernorWhereTheNetworkWorkIs) {
    Router r("bpi-r4");
    policy(r, "powersave");
    auto l = layout::plan(r.snapshot());
    ASSERT_EQ(l.governors.size(), 1u);
    EXPECT_EQ(l.governors[0].policy, 0);
    EXPECT_EQ(l.governors[0].governor, "schedutil");
    EXPECT_NE(l.governors[0].why.find("the powersave governor keeps it at its lowest"),
              std::string::npos)
        << l.governors[0].why;

    policy(r, "conservative", "1800000", "conservative powersave performance");
    l = layout::plan(r.snapshot());
    ASSERT_EQ(l.governors.size(), 1u);
    EXPECT_EQ(l.governors[0].governor, "performance");

    policy(r, "userspace", "1800000", "userspace powersave");
    l = layout::plan(r.snapshot());
    EXPECT_TRUE(l.governors.empty());
    const auto notes = governorNotes(r.snapshot());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("offers neither schedutil nor performance"), std::string::npos);

    policy(r, "schedutil", "1200000");
    EXPECT_TRUE(layout::plan(r.snapshot()).governors.empty());
    policy(r, "ondemand");
    EXPECT_TRUE(layout::plan(r.snapshot()).governors.empty());
}

// Layout files carry governors as "cpufreq" (schema version 2, written only when there are
// any, so that an older coresteer reads every other layout), strictly.
TEST(Governor, LayoutFilesCarryGovernorsStrictly) {
    layout::Layout l;
    l.governors.push_back({4, "performance", "big cores"});
    const auto j = layout::toJson(l);
    EXPECT_EQ(j["schema"], "coresteer.layout/2");
    EXPECT_EQ(j["cpufreq"][0]["policy"], 4);
    EXPECT_EQ(j["cpufreq"][0]["governor"], "performance");
    std::string error;
    const auto back = layout::parseLayout(j.dump(), &error);
    ASSERT_TRUE(back) << error;
    ASSERT_EQ(back->governors.size(), 1u);
    EXPECT_EQ(back->governors[0].policy, 4);
    EXPECT_EQ(back->governors[0].governor, "performance");
    EXPECT_EQ(back->governors[0].why, "big cores");
    EXPECT_EQ(layout::toJson(layout::Layout{})["schema"], "coresteer.layout/1");
    layout::Preset p{"n", "b", "", l};
    EXPECT_EQ(layout::toJson(p)["schema"], "coresteer.preset/2");
    p.layout.governors.clear();
    EXPECT_EQ(layout::toJson(p)["schema"], "coresteer.preset/1");

    for (const char* bad : {R"({"schema":"coresteer.layout/2","cpufreq":[{"policy":0}]})",
                            R"({"schema":"coresteer.layout/2","cpufreq":[{"policy":0,
                                "governor":"perf'$(reboot)'"}]})",
                            R"({"schema":"coresteer.layout/2","cpufreq":[{"policy":-1,
                                "governor":"performance"}]})",
                            R"({"schema":"coresteer.layout/2","cpufreq":[{"policy":0,
                                "governor":"performance","speed":1}]})",
                            "{\"schema\":\"coresteer.layout/2\",\"cpufreq\":[{\"policy\":0,"
                            "\"governor\":\"sched\u2028util\"}]}",
                            "{\"schema\":\"coresteer.layout/2\",\"cpufreq\":[{\"policy\":0,"
                            "\"governor\":\"sched\\nutil\"}]}"}) {
        error.clear();
        EXPECT_FALSE(layout::parseLayout(bad, &error)) << bad;
        EXPECT_EQ(error.rfind("cpufreq[0]", 0), 0u) << error;
    }
    // A name too long to be one, and one that is not UTF-8: refused, and said in printable text.
    error.clear();
    EXPECT_FALSE(
        layout::parseLayout("{\"schema\":\"coresteer.layout/2\",\"cpufreq\":[{\"policy\":0,"
                            "\"governor\":\"" +
                                std::string(40, 'a') + "\"}]}",
                            &error));
    EXPECT_NE(error.find("is not a governor name"), std::string::npos) << error;
    error.clear();
    EXPECT_FALSE(
        layout::parseLayout("{\"schema\":\"coresteer.layout/2\",\"cpufreq\":[{\"policy\":0,"
                            "\"governor\":\"\x1b[2J\"}]}",
                            &error));
    EXPECT_EQ(error.find('\x1b'), std::string::npos) << error;
    error.clear();
    EXPECT_FALSE(layout::parseLayout(R"({"schema":"coresteer.layout/6"})", &error));
    EXPECT_NE(error.find("reads up to coresteer.layout/5"), std::string::npos) << error;
}

// Resolve writes only a governor the policy offers, to a policy that is there.
TEST(Governor, ResolveWritesOnlyAGovernorThePolicyOffers) {
    Router r("bpi-r4");
    policy(r, "powersave", "1800000", "powersave performance");
    layout::Layout l;
    l.governors = {
        {0, "performance", ""}, {0, "schedutil", ""}, {4, "performance", ""}, {0, "perf\nx", ""}};
    const auto res = layout::resolve(l, r.snapshot());
    ASSERT_EQ(res.writes.size(), 1u);
    EXPECT_EQ(res.writes[0].path, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor");
    EXPECT_EQ(res.writes[0].value, "performance");
    EXPECT_EQ(res.writes[0].current, "powersave");
    EXPECT_TRUE(res.writes[0].changes());
    ASSERT_EQ(res.skipped.size(), 3u);
    EXPECT_EQ(res.skipped[0].reason,
              "this kernel has no schedutil governor for it (it has: powersave performance)");
    EXPECT_EQ(res.skipped[1].reason, "no such cpufreq policy here");
    EXPECT_EQ(res.skipped[2].reason, "'perf\\nx' is not a governor name");
    policy(r, "performance", "1800000", "powersave performance");
    EXPECT_EQ(layout::resolve(l, r.snapshot()).changeCount(), 0u);
}

// Apply writes the governor with the rest of the layout; the revert job restores it, and a
// revert.data line that puts anything but a governor's name there is left alone.
TEST(Governor, ApplyWritesItAndTheRevertRestoresIt) {
    Router r("bpi-r4");
    policy(r, "powersave");
    const auto snap = r.snapshot();
    std::vector<layout::Write> writes;
    for (const auto& w : layout::resolve(layout::plan(snap), snap).writes)
        if (w.changes())
            writes.push_back(w);
    ASSERT_TRUE(std::any_of(writes.begin(), writes.end(), [](const layout::Write& w) {
        return w.kind == layout::Write::Kind::Governor;
    }));
    const auto s = layout::makeApplyScript(writes, r.root.string(), {5, true});
    std::string out;
    ASSERT_EQ(r.ash("-s", "", &out, s.script), 0) << r.err();
    std::string error;
    const auto rep = layout::parseApplyOutput(out, s.token, writes, &error);
    ASSERT_TRUE(rep) << error;
    for (const auto& t : rep->results) {
        if (t.write.kind == layout::Write::Kind::Governor) {
            EXPECT_EQ(t.status, layout::TargetResult::Status::Applied) << t.error;
        }
    }
    EXPECT_EQ(governorOf(r), "schedutil");
    // Not confirmed: the timer puts powersave back.
    for (int i = 0; i < 150 && governorOf(r) != "powersave"; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(governorOf(r), "powersave");

    // A tampered revert.data: only a governor's name is written back to a governor.
    ASSERT_EQ(
        r.ash("-s", "", &out, layout::makeApplyScript(writes, r.root.string(), {60, true}).script),
        0)
        << r.err();
    EXPECT_EQ(governorOf(r), "schedutil");
    const auto gov = std::string("sys/devices/system/cpu/cpufreq/policy0/scaling_governor");
    std::ofstream(r.root / "tmp/coresteer/revert.data", std::ios::trunc)
        << gov << "\t$(touch_me)\n"
        << gov << "\tPerformance\n"
        << "sys/devices/system/cpu/cpufreq/../cpufreq/scaling_governor\tpowersave\n"
        << "sys/devices/system/cpu/cpufreq/policyx/scaling_governor\tpowersave\n"
        << gov << "\tondemand\n";
    ASSERT_EQ(r.ash("-s", "", &out,
                    layout::makeSettleScript(r.root.string(), layout::PendingAction::Revert)),
              0)
        << r.err();
    EXPECT_EQ(governorOf(r), "ondemand");
    for (int line = 1; line <= 4; ++line)
        EXPECT_NE(r.err().find("revert.data line " + std::to_string(line) + " is not a value"),
                  std::string::npos)
            << line << ": " << r.err();
    EXPECT_FALSE(r.executedAnything());
}

// Persist: the hotplug script sets the governor at every boot (after the firmware's own
// cpufreq settings, which run before the network comes up), and unpersist leaves it alone.
TEST(Governor, PersistSetsItAtEveryBoot) {
    Router r("bpi-r4");
    policy(r, "powersave");
    const auto snap = r.snapshot();
    layout::PersistOptions o;
    std::string error;
    const auto plan = layout::planPersist(layout::plan(snap), snap, o, &error);
    ASSERT_TRUE(plan) << error;
    ASSERT_TRUE(r.run(layout::makePersistScript(*plan, r.root.string()), &error)) << error;
    EXPECT_NE(slurp(r.root / "etc/coresteer/layout.json").find("\"governor\": \"schedutil\""),
              std::string::npos);
    // A reboot: the firmware comes up with powersave, then the network's hotplug events.
    policy(r, "powersave");
    ASSERT_EQ(r.hotplug(hotplugPath(), "", "add"), 0) << r.err();
    EXPECT_EQ(governorOf(r), "schedutil");
    ASSERT_TRUE(r.run(layout::makeUnpersistScript(r.root.string()), &error)) << error;
    EXPECT_EQ(governorOf(r), "schedutil");
    EXPECT_FALSE(r.executedAnything());
}
