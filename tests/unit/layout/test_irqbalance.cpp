// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Living with irqbalance: what it is told to leave alone, read from every place that tells it,
// and persist's bans of the layout's IRQs (OpenWrt's /etc/config/irqbalance, a systemd drop-in),
// run with BusyBox ash on copies of the board fixtures. The files are written from what
// OpenWrt's irqbalance package and irqbalance's own unit say: the init script gives the daemon
// "-i N" for each "list banirq" of the section 'irqbalance'; the unit starts it with
// $IRQBALANCE_ARGS from /etc/default/irqbalance.
#include "core/layout/fleet.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/model/conflicts.h"
#include "core/model/snapshot.h"
#include "tests/unit/layout/router_copy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace coresteer;
using namespace coresteer::test;
using namespace coresteer::layout;

namespace {

// OpenWrt's package as the owner left it: enabled, with a ban of their own.
constexpr const char* kUciConfig = "config irqbalance 'irqbalance'\n"
                                   "\toption enabled '1'\n"
                                   "\t#option interval '10'\n"
                                   "\tlist banirq '5'\n";

constexpr const char* kUnit = "[Unit]\nDescription=irqbalance daemon\n\n[Service]\n"
                              "EnvironmentFile=-/etc/default/irqbalance\n"
                              "ExecStart=/usr/sbin/irqbalance --foreground $IRQBALANCE_ARGS\n";

// The OpenWrt board with the package installed and configured as kUciConfig.
void withUciIrqbalance(const Router& r) {
    ASSERT_TRUE(readyForPersist(r));
    r.write("etc/config/irqbalance", kUciConfig);
}

const Conflict* irqbalanceConflict(const std::vector<Conflict>& cs) {
    const auto it = std::find_if(cs.begin(), cs.end(), [](const Conflict& c) {
        return c.kind == Conflict::Kind::Irqbalance;
    });
    return it == cs.end() ? nullptr : &*it;
}
// Not of a temporary: the pointer would outlive the list.
const Conflict* irqbalanceConflict(std::vector<Conflict>&&) = delete;

// Persisting `layout` (the planner's for `snap` when none) with the layout's IRQs banned.
std::optional<PersistPlan> banPlan(const Snapshot& snap,
                                   const std::optional<Layout>& layout = std::nullopt) {
    PersistOptions o;
    o.banInIrqbalance = true;
    std::string error;
    auto p = planPersist(layout ? *layout : layout::plan(snap), snap, o, &error);
    EXPECT_TRUE(p) << error;
    return p;
}

std::string bansIn(const std::vector<std::uint32_t>& irqs) {
    std::string s;
    for (const auto irq : irqs)
        s += "\tlist banirq '" + std::to_string(irq) + "'\n";
    return s;
}

std::string numbers(const std::vector<std::uint32_t>& irqs) {
    std::string s;
    for (const auto irq : irqs)
        s += std::to_string(irq) + "\n";
    return s;
}

} // namespace

TEST(Irqbalance, BansAreReadFromEveryPlaceThatMakesThem) {
    Router r("bpi-r4");
    r.write("etc/config/irqbalance",
            std::string(kUciConfig) + "\tlist banirq \"7\"\n\toption banned_cpulist '0-1'\n");
    r.write("etc/default/irqbalance",
            "# irqbalance's own comments\n#IRQBALANCE_ONESHOT=\n"
            "IRQBALANCE_ARGS=\"--banirq=40 -i 41 --banirq 42 -i43 --policyscript=/x\"\n");
    // The running daemon (the fixture's process 3104) and what it was started with.
    static constexpr char kCmdline[] = "/usr/sbin/irqbalance\0-f\0-i\00044";
    r.write("proc/3104/cmdline", std::string(kCmdline, sizeof kCmdline));
    const auto snap = r.snapshot();
    const auto& bans = snap.system.services.irqbalance;
    EXPECT_EQ(bans.owner, (std::vector<std::uint32_t>{5, 7, 40, 41, 42, 43, 44}));
    EXPECT_TRUE(bans.coresteer.empty());
    EXPECT_EQ(bans.bannedCpus, "0-1");
    const auto conflicts = detectConflicts(snap);
    const auto* c = irqbalanceConflict(conflicts);
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->blocking);
    EXPECT_NE(c->detail.find("banned in its configuration: 5, 7, 40, 41, 42, 43, 44"),
              std::string::npos)
        << c->detail;
    EXPECT_NE(c->suggestion.find("persist --irqbalance-ban"), std::string::npos);
}

// OpenWrt: the layout's IRQs as "list banirq" lines after the section's first line, the
// owner's ban left alone; unpersist gives the file back its bytes.
TEST(Irqbalance, PersistBansTheLayoutsIrqsAndUnpersistLiftsThem) {
    Router r("bpi-r4");
    withUciIrqbalance(r);
    r.write("etc/init.d/irqbalance", "#!/bin/sh /etc/rc.common\nSTART=90\n");
    const auto snap = r.snapshot();
    const auto plan = banPlan(snap);
    ASSERT_TRUE(plan);
    ASSERT_FALSE(plan->banIrqs.empty());
    EXPECT_TRUE(std::none_of(plan->actions.begin(), plan->actions.end(), [](const auto& a) {
        return a.find("Stops and disables irqbalance") != std::string::npos;
    }));
    std::string error;
    const auto rep = r.run(makePersistScript(*plan, r.root.string()), &error);
    ASSERT_TRUE(rep) << error;
    EXPECT_FALSE(rep->irqbalanceBanFailed);
    EXPECT_EQ(slurp(r.root / "etc/config/irqbalance"),
              "config irqbalance 'irqbalance'\n" + bansIn(plan->banIrqs) +
                  "\toption enabled '1'\n\t#option interval '10'\n\tlist banirq '5'\n");
    EXPECT_EQ(slurp(r.root / "etc/coresteer/irqbalance.banned"), numbers(plan->banIrqs));

    // Read back: coresteer's bans are its own, the owner's stay the owner's, and irqbalance is
    // no longer in the layout's way.
    const auto after = r.snapshot();
    EXPECT_EQ(after.system.services.irqbalance.coresteer, plan->banIrqs);
    EXPECT_EQ(after.system.services.irqbalance.owner, std::vector<std::uint32_t>{5});
    const auto conflicts = detectConflicts(after);
    const auto* c = irqbalanceConflict(conflicts);
    ASSERT_TRUE(c);
    EXPECT_FALSE(c->blocking);

    // Persisting the same layout again changes nothing; unpersist gives the file back as it was.
    const auto again = banPlan(after, plan->layout);
    ASSERT_TRUE(again);
    const auto same = r.run(makePersistScript(*again, r.root.string(), true), &error);
    ASSERT_TRUE(same) << error;
    EXPECT_TRUE(same->unchanged);
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    EXPECT_EQ(slurp(r.root / "etc/config/irqbalance"), kUciConfig);
    EXPECT_FALSE(std::filesystem::exists(r.root / "etc/coresteer"));
}

// At a later boot an IRQ of the layout has another number: the apply script pins it and bans
// the new number as well (the old ban stays until the next persist).
TEST(Irqbalance, ANewNumberAtBootIsBannedByTheApplyScript) {
    Router r("bpi-r4");
    withUciIrqbalance(r);
    const auto snap = r.snapshot();
    const auto plan = banPlan(snap);
    ASSERT_TRUE(plan);
    std::string error;
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    const std::uint32_t old = plan->banIrqs.front();
    const std::uint32_t renumbered = 4000 + old;
    // The same IRQ under the new number, in /proc/interrupts and /proc/irq.
    auto table = slurp(r.root / "proc/interrupts");
    std::size_t at = std::string::npos;
    for (const char* before : {"\n", " "})
        if (at == std::string::npos)
            at = table.find(before + std::to_string(old) + ":");
    ASSERT_NE(at, std::string::npos);
    table.replace(at + 1, std::to_string(old).size(), std::to_string(renumbered));
    r.write("proc/interrupts", table);
    std::filesystem::rename(r.root / "proc/irq" / std::to_string(old),
                            r.root / "proc/irq" / std::to_string(renumbered));
    ASSERT_EQ(r.hotplug(hotplugPath(), "", "add"), 0) << r.err();
    const auto config = slurp(r.root / "etc/config/irqbalance");
    EXPECT_NE(config.find("\tlist banirq '" + std::to_string(renumbered) + "'\n"),
              std::string::npos)
        << config;
    const auto listed = slurp(r.root / "etc/coresteer/irqbalance.banned");
    EXPECT_NE(listed.find(std::to_string(renumbered) + "\n"), std::string::npos);
    // Another event with nothing new writes nothing.
    const auto before = std::filesystem::last_write_time(r.root / "etc/config/irqbalance");
    ASSERT_EQ(r.hotplug(hotplugPath(), "", "add"), 0) << r.err();
    EXPECT_EQ(std::filesystem::last_write_time(r.root / "etc/config/irqbalance"), before);
    EXPECT_EQ(slurp(r.root / "etc/config/irqbalance"), config);
}

// systemd: a drop-in that starts irqbalance as its unit does, with the bans added; the owner's
// $IRQBALANCE_ARGS still reach it. unpersist takes the drop-in away.
TEST(Irqbalance, SystemdDropInKeepsTheUnitsOwnArguments) {
    Router r("x86-server-96");
    std::filesystem::create_directories(r.root / "run/systemd/system");
    r.write("lib/systemd/system/irqbalance.service", kUnit);
    const auto snap = r.snapshot();
    ASSERT_TRUE(snap.system.services.irqbalanceInstalled);
    const auto plan = banPlan(snap);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->flavor, PersistPlan::Flavor::Systemd);
    ASSERT_FALSE(plan->banIrqs.empty());
    std::string error;
    const auto rep = r.run(makePersistScript(*plan, r.root.string()), &error);
    ASSERT_TRUE(rep) << error;
    EXPECT_FALSE(rep->irqbalanceBanFailed);
    std::string args;
    for (const auto irq : plan->banIrqs)
        args += " --banirq=" + std::to_string(irq);
    const auto dropIn = r.root / "etc/systemd/system/irqbalance.service.d/90-coresteer.conf";
    EXPECT_EQ(slurp(dropIn), "# Generated by coresteer: irqbalance leaves alone the IRQs that "
                             "coresteer's layout pins.\n[Service]\nExecStart=\n"
                             "ExecStart=/usr/sbin/irqbalance --foreground $IRQBALANCE_ARGS" +
                                 args + "\n");
    EXPECT_EQ(slurp(r.root / "lib/systemd/system/irqbalance.service"), kUnit);
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    EXPECT_FALSE(std::filesystem::exists(dropIn.parent_path()));
    EXPECT_FALSE(std::filesystem::exists(r.root / "etc/coresteer"));
}

// A configuration that is a link is never followed nor replaced; one without the section is
// left as it is; either way persist says the bans failed, and nothing else is written there.
TEST(Irqbalance, AConfigurationThatIsALinkOrHasNoSectionIsLeftAlone) {
    Router r("bpi-r4");
    ASSERT_TRUE(readyForPersist(r));
    const auto outside = r.root.parent_path() / "outside";
    { std::ofstream(outside) << kUciConfig; }
    std::filesystem::create_directories(r.root / "etc/config");
    std::filesystem::create_symlink(outside, r.root / "etc/config/irqbalance");
    auto snap = r.snapshot();
    snap.system.services.irqbalanceInstalled = true; // the collector does not follow the link
    auto plan = banPlan(snap);
    ASSERT_TRUE(plan);
    std::string error;
    auto rep = r.run(makePersistScript(*plan, r.root.string()), &error);
    ASSERT_TRUE(rep) << error;
    EXPECT_TRUE(rep->irqbalanceBanFailed);
    EXPECT_TRUE(std::filesystem::is_symlink(r.root / "etc/config/irqbalance"));
    EXPECT_EQ(slurp(outside), kUciConfig);
    EXPECT_FALSE(std::filesystem::exists(r.root / "etc/coresteer/irqbalance.banned"));
    const auto said = std::find_if(rep->messages.begin(), rep->messages.end(), [](const auto& m) {
        return m.find("is a link or not a plain file") != std::string::npos;
    });
    EXPECT_NE(said, rep->messages.end());

    std::filesystem::remove(r.root / "etc/config/irqbalance");
    const std::string noSection = "config other 'x'\n\toption enabled '1'\n";
    r.write("etc/config/irqbalance", noSection);
    plan = banPlan(r.snapshot());
    ASSERT_TRUE(plan);
    rep = r.run(makePersistScript(*plan, r.root.string()), &error);
    ASSERT_TRUE(rep) << error;
    EXPECT_TRUE(rep->irqbalanceBanFailed);
    EXPECT_EQ(slurp(r.root / "etc/config/irqbalance"), noSection);
    EXPECT_FALSE(std::filesystem::exists(r.root / "etc/config/irqbalance.coresteer-new"));
}

// What coresteer's list of bans says is data: a planted line that is no number never reaches
// the configuration or a command.
TEST(Irqbalance, APlantedListOfBansIsOnlyNumbers) {
    Router r("bpi-r4");
    withUciIrqbalance(r);
    r.write("etc/coresteer/irqbalance.banned", "1'; touch_me; '\n$(id)\n12\n");
    const auto plan = banPlan(r.snapshot());
    ASSERT_TRUE(plan);
    std::string error;
    ASSERT_TRUE(r.run(makePersistScript(*plan, r.root.string()), &error)) << error;
    const auto config = slurp(r.root / "etc/config/irqbalance");
    EXPECT_EQ(config.find("touch_me"), std::string::npos);
    EXPECT_EQ(config.find("id)"), std::string::npos);
    EXPECT_FALSE(r.executedAnything());
    EXPECT_EQ(slurp(r.root / "etc/coresteer/irqbalance.banned"), numbers(plan->banIrqs));
}

// Not installed: nothing to ban, and the apply script is not asked to.
TEST(Irqbalance, NotInstalledBansNothing) {
    Router r("nanopi-r6s-openwrt");
    ASSERT_TRUE(readyForPersist(r));
    const auto snap = r.snapshot();
    ASSERT_FALSE(snap.system.services.irqbalanceInstalled);
    const auto plan = banPlan(snap);
    ASSERT_TRUE(plan);
    EXPECT_TRUE(plan->banIrqs.empty());
    EXPECT_NE(std::find(plan->actions.begin(), plan->actions.end(),
                        "Bans nothing in irqbalance: it is not installed here."),
              plan->actions.end());
    const auto hook = std::find_if(plan->files.begin(), plan->files.end(),
                                   [](const auto& f) { return f.path == hotplugPath(); });
    ASSERT_NE(hook, plan->files.end());
    EXPECT_NE(hook->content.find("\nBAN=\n"), std::string::npos);
    EXPECT_EQ(hook->content.find("ban_irqs()"), std::string::npos);
}

// The planner's note counts the layout's IRQs that irqbalance would move: all, some, or none
// once they are banned.
TEST(Irqbalance, ThePlannersNoteCountsTheIrqsItWouldMove) {
    Router r("bpi-r4");
    withUciIrqbalance(r);
    auto irqbalanceNotes = [&] {
        std::vector<std::string> out;
        for (const auto& n : layout::plan(r.snapshot()).notes)
            if (n.rfind("irqbalance is running", 0) == 0)
                out.push_back(n);
        return out;
    };
    const auto plan = banPlan(r.snapshot());
    ASSERT_TRUE(plan);
    ASSERT_GE(plan->banIrqs.size(), 2u);
    auto notes = irqbalanceNotes();
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("will move these IRQs again"), std::string::npos) << notes[0];
    EXPECT_NE(notes[0].find("persist --irqbalance-ban"), std::string::npos);
    // One of them banned by the owner: the rest are counted.
    r.write("etc/config/irqbalance", std::string(kUciConfig) + "\tlist banirq '" +
                                         std::to_string(plan->banIrqs.front()) + "'\n");
    notes = irqbalanceNotes();
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(
        notes[0].find("will move " + std::to_string(plan->banIrqs.size() - 1) + " of these IRQs"),
        std::string::npos)
        << notes[0];
    // All of them banned (coresteer's persist did it): nothing to say.
    r.write("etc/coresteer/irqbalance.banned", numbers(plan->banIrqs));
    EXPECT_TRUE(irqbalanceNotes().empty());
}

// The fleet's playbook (export ansible --irqbalance-ban), made without a snapshot: its apply
// leaves irqbalance's configuration alone (it may yet be reverted); its persist bans the layout's
// IRQs where the router has irqbalance (the owner's ban stays), once, and says so; a router
// without irqbalance persists as ever, with nothing said about it.
TEST(Irqbalance, TheFleetsPersistBansWhereIrqbalanceIs) {
    Router r("bpi-r4");
    withUciIrqbalance(r);
    const auto snap = r.snapshot();
    Preset preset;
    preset.name = "bpi-r4";
    preset.board = snap.system.boardName;
    preset.layout = plan(snap);
    FleetOptions options;
    options.persist.banInIrqbalance = true;
    std::string error;
    const auto f = makeFleetScripts(preset, options, &error);
    ASSERT_TRUE(f) << error;
    std::string out;
    ASSERT_EQ(r.fleet(f->apply, "", &out), 0) << r.err();
    ASSERT_EQ(r.fleet(f->confirm, "", &out), 0) << r.err();
    EXPECT_EQ(slurp(r.root / "etc/config/irqbalance"), kUciConfig);
    EXPECT_FALSE(fs::exists(r.root / "etc/coresteer/irqbalance.banned"));

    ASSERT_EQ(r.fleet(f->persist, "", &out), 0) << r.err();
    EXPECT_NE(out.find("coresteer: irqbalance leaves IRQ "), std::string::npos) << out;
    EXPECT_NE(out.find("coresteer: changed\n"), std::string::npos) << out;
    const auto config = slurp(r.root / "etc/config/irqbalance");
    EXPECT_NE(config.find("\tlist banirq '5'\n"), std::string::npos) << config;
    const IrqNames names(snap);
    std::string banned;
    std::vector<std::uint32_t> irqs;
    for (const auto& t : preset.layout.irqs)
        if (const auto irq = names.find(t.irq))
            irqs.push_back(*irq);
    std::sort(irqs.begin(), irqs.end());
    irqs.erase(std::unique(irqs.begin(), irqs.end()), irqs.end());
    ASSERT_FALSE(irqs.empty());
    for (const auto irq : irqs) {
        EXPECT_NE(config.find("\tlist banirq '" + std::to_string(irq) + "'\n"), std::string::npos)
            << irq << "\n"
            << config;
        banned += std::to_string(irq) + "\n";
    }
    EXPECT_EQ(slurp(r.root / "etc/coresteer/irqbalance.banned"), banned);
    // The persisted script bans them at every boot.
    EXPECT_NE(slurp(r.root / hotplugPath()).find("\nBAN=auto\n"), std::string::npos);
    // Once: a second run changes nothing.
    ASSERT_EQ(r.fleet(f->persist, "", &out), 0) << r.err();
    EXPECT_EQ(out, "coresteer: unchanged\n");
    EXPECT_EQ(slurp(r.root / "etc/config/irqbalance"), config);
    // Unpersist lifts coresteer's bans and keeps the owner's.
    ASSERT_TRUE(r.run(makeUnpersistScript(r.root.string()), &error)) << error;
    EXPECT_EQ(slurp(r.root / "etc/config/irqbalance"), kUciConfig);

    // Without irqbalance: persisted as ever, nothing said of it, at persist or at boot.
    Router plain("nanopi-r6s-openwrt");
    ASSERT_TRUE(readyForPersist(plain));
    Preset other = preset;
    other.board = plain.snapshot().system.boardName;
    other.layout = plan(plain.snapshot());
    const auto g = makeFleetScripts(other, options, &error);
    ASSERT_TRUE(g) << error;
    ASSERT_EQ(plain.fleet(g->persist, "", &out), 0) << plain.err();
    EXPECT_EQ(out.find("irqbalance"), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(plain.root / "etc/coresteer/irqbalance.banned"));
    ASSERT_EQ(plain.hotplug(hotplugPath(), "", "add"), 0);
    EXPECT_EQ(plain.err().find("irqbalance"), std::string::npos) << plain.err();
    EXPECT_FALSE(r.executedAnything());
}
