// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Router bytes in every JSON document coresteer writes: invalid UTF-8, NUL, C0 and C1 controls
// and U+2028 in IRQ action names, interface names, hostnames and board names (from a fixture
// root), and in a preset file's name, note and why. Every document parses as JSON, valid names
// come back byte for byte, and nothing aborts: not the writers, not the CLI.
#include "core/base/json_text.h"
#include "core/collect/capture.h"
#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/layout/persist.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "core/live/recording.h"
#include "core/live/source.h"
#include "core/model/snapshot_json.h"
#include "tests/support/hostile_names.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

using namespace coresteer;
using namespace coresteer::layout;
using namespace coresteer::live;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using namespace coresteer::test;

// The hostile tree of this test (ctest runs the tests of this file side by side), made anew
// when the test first asks for it.
fs::path hostileRoot() {
    static std::set<std::string> made;
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const auto root = fs::path(CORESTEER_TEST_TMP) / "json-writers" / name / "root";
    if (made.insert(name).second)
        makeHostileRoot(root);
    return root;
}

Snapshot hostileSnapshot() {
    return buildSnapshot(collectLocal(hostileRoot()));
}

// The text as JSON; a failed parse fails the test (with where it broke).
json parsed(const std::string& text) {
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        ADD_FAILURE() << e.what() << " in " << text.substr(0, 200);
        return {};
    }
}

bool hasReplacement(const std::string& s) {
    return s.find("\xef\xbf\xbd") != std::string::npos;
}

// Every IRQ action name in a snapshot document.
std::vector<std::string> actionNames(const json& snap) {
    std::vector<std::string> out;
    for (const auto& irq : snap.at("irqs"))
        for (const auto& a : irq.at("actions"))
            out.push_back(a.get<std::string>());
    return out;
}

// The number of the IRQ whose first action is `name` (0 when none is).
std::uint32_t irqNamed(const Snapshot& snap, const std::string& name) {
    for (const auto& row : snap.interrupts.rows)
        if (row.irq && !row.actions.empty() && row.actions.front() == name)
            return *row.irq;
    return 0;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

// The IRQ selectors' and queues' names in a layout document.
std::vector<std::string> layoutNames(const json& l) {
    std::vector<std::string> out;
    for (const auto& t : l.value("irqs", json::array()))
        out.push_back(t.at("action").get<std::string>());
    for (const char* key : {"rx_queues", "tx_queues", "interfaces"})
        for (const auto& t : l.value(key, json::array()))
            out.push_back(t.at("interface").get<std::string>());
    return out;
}

} // namespace

TEST(JsonText, EscapesWhatTerminalsAndScriptsMisreadAndReplacesWhatIsNotUtf8) {
    const json j = {{"valid", kValidIrq}, {"invalid", kInvalidIrq}, {"del", "a\x7f"}};
    const auto text = jsonText(j, -1);
    // One line, ASCII controls, C1 controls and the line separators written as escapes.
    EXPECT_EQ(text.find('\n'), std::string::npos);
    for (const char* raw : {"\x01", "\x1b", "\x7f", "\xc2\x85", "\xc2\x9b", "\xe2\x80\xa8"})
        EXPECT_EQ(text.find(raw), std::string::npos) << text::printable(raw);
    EXPECT_NE(text.find("\\u2028"), std::string::npos) << text;
    EXPECT_NE(text.find("\\u0085"), std::string::npos) << text;
    const auto back = parsed(text);
    EXPECT_EQ(back.at("valid").get<std::string>(), kValidIrq);
    EXPECT_EQ(back.at("del").get<std::string>(), "a\x7f");
    EXPECT_TRUE(hasReplacement(back.at("invalid").get<std::string>()));
    EXPECT_EQ(back.at("invalid").get<std::string>().rfind("eth2-TxRx-0-", 0), 0u);
    // What has nothing to escape is what nlohmann writes.
    const json plain = {{"a", "b\xc3\xa9"}, {"n", 1}};
    EXPECT_EQ(jsonText(plain), plain.dump(2));
}

TEST(JsonWriters, SnapshotKeepsValidNamesAndReplacesTheRest) {
    const auto snap = hostileSnapshot();
    const auto doc = parsed(toJsonText(snap));
    const auto names = actionNames(doc);
    EXPECT_TRUE(contains(names, kValidIrq));
    EXPECT_FALSE(contains(names, kInvalidIrq));
    EXPECT_TRUE(std::any_of(names.begin(), names.end(), [](const std::string& n) {
        return n.rfind("eth2-TxRx-0-", 0) == 0 && hasReplacement(n);
    }));
    std::vector<std::string> ifs;
    for (const auto& n : doc.at("interfaces"))
        ifs.push_back(n.at("name").get<std::string>());
    EXPECT_TRUE(contains(ifs, kValidIf));
    EXPECT_EQ(std::count_if(ifs.begin(), ifs.end(), hasReplacement), 1);
    // The hostname and board name are made printable when read: that text comes back whole.
    EXPECT_EQ(doc.at("system").at("hostname").get<std::string>(), snap.system.hostname);
    EXPECT_EQ(doc.at("system").at("board").get<std::string>(), snap.system.boardName);
    EXPECT_FALSE(snap.system.hostname.empty());
}

// The plan and the current layout name IRQs and queues by the router's names: valid ones come
// back byte for byte, and the layout read back resolves to the same IRQs on the same snapshot.
TEST(JsonWriters, PlanAndLayoutRoundTripValidNames) {
    const auto snap = hostileSnapshot();
    for (const auto& layout : {plan(snap), currentLayout(snap)}) {
        const auto text = jsonText(toJson(layout));
        const auto names = layoutNames(parsed(text));
        EXPECT_TRUE(contains(names, kValidIrq));
        EXPECT_TRUE(std::any_of(names.begin(), names.end(), hasReplacement));
        std::string error;
        const auto back = parseLayout(text, &error);
        ASSERT_TRUE(back) << error;
        const auto before = resolve(layout, snap), after = resolve(*back, snap);
        EXPECT_TRUE(std::any_of(after.writes.begin(), after.writes.end(), [&](const Write& w) {
            return w.path ==
                   "proc/irq/" + std::to_string(irqNamed(snap, kValidIrq)) + "/smp_affinity";
        }));
        // Only the targets whose names were not UTF-8 are lost on the way.
        EXPECT_LE(before.writes.size() - after.writes.size(), 4u);
    }
    // The layout persisted on the router, both forms.
    for (const bool compact : {false, true}) {
        const auto names = layoutNames(parsed(persistedLayoutJson(plan(snap), compact)));
        EXPECT_TRUE(contains(names, kValidIrq));
    }
}

// A preset file may say anything JSON can say in its name, note and why; it is written back the
// same, byte for byte. Names that are not UTF-8 (a board name from the router) are replaced.
TEST(JsonWriters, PresetFieldsRoundTrip) {
    const std::string file = R"({
  "schema": "coresteer.preset/1",
  "name": "nul\u0000 soh\u0001 esc\u001b nel\u0085 csi\u009b ls\u2028 ps\u2029 e\u00e9",
  "board": "b\u2028",
  "note": "line one\nline two\u0000",
  "layout": {
    "irqs": [{"action": "eth0\u0000\u001b", "cpus": "1", "why": "why\u2028\u0085\u0001"}]
  }
})";
    std::string error;
    const auto p = parsePreset(file, &error);
    ASSERT_TRUE(p) << error;
    EXPECT_EQ(p->name, "nul\0 soh\x01 esc\x1b nel\xc2\x85 csi\xc2\x9b ls\xe2\x80\xa8 "
                       "ps\xe2\x80\xa9 e\xc3\xa9"s);
    const auto text = jsonText(toJson(*p));
    const auto again = parsePreset(text, &error);
    ASSERT_TRUE(again) << error;
    EXPECT_EQ(again->name, p->name);
    EXPECT_EQ(again->board, p->board);
    EXPECT_EQ(again->note, p->note);
    ASSERT_EQ(again->layout.irqs.size(), 1u);
    EXPECT_EQ(again->layout.irqs[0].irq.action, "eth0\0\x1b"s);
    EXPECT_EQ(again->layout.irqs[0].why, p->layout.irqs[0].why);

    Preset fromRouter = *p;
    fromRouter.board = "\xff\xfe";
    fromRouter.name = kInvalidIrq;
    const auto doc = parsed(jsonText(toJson(fromRouter)));
    EXPECT_TRUE(hasReplacement(doc.at("board").get<std::string>()));
    EXPECT_TRUE(hasReplacement(doc.at("name").get<std::string>()));
}

// A capture is not JSON: it carries the router's bytes as they are, the invalid ones too.
TEST(JsonWriters, CaptureKeepsEveryByte) {
    const auto bundle = collectLocal(hostileRoot());
    std::string error;
    const auto back = readCapture(writeCapture(bundle), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->entries(), bundle.entries());
    EXPECT_NE(back->file("proc/interrupts")->find(kInvalidIrq), std::string::npos);
}

// A recording holds the router's label, the capture and the layout in force as JSON: it reads
// back, and its layout names the valid IRQ as the router does.
TEST(JsonWriters, RecordingLayoutAndLabel) {
    const auto snap = hostileSnapshot();
    const auto bundle = collectLocal(hostileRoot());
    RecordingWriter w({"label \xff\x1b\xe2\x80\xa8", utcTimestamp(), 10, writeCapture(bundle),
                       jsonText(toJson(currentLayout(snap))), {}});
    auto src = localSampleSource(hostileRoot().string());
    std::string error;
    for (int i = 0; i < 2; ++i) {
        ASSERT_TRUE(src->next(&error)) << error;
        w.sample(i * 0.1, src->lastTexts());
    }
    const auto r = readRecording(w.text(), &error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->info.label, "label \xff\x1b\xe2\x80\xa8");
    const auto layout = parseLayout(r->info.layout, &error);
    ASSERT_TRUE(layout) << error;
    EXPECT_TRUE(std::any_of(layout->irqs.begin(), layout->irqs.end(),
                            [](const IrqTarget& t) { return t.irq.action == kValidIrq; }));
}

namespace {

struct Run {
    int status = -1; // the exit status; -1 when it did not exit (a signal, such as SIGABRT)
    std::string out, err;
};

Run cliBinary(const std::string& args) {
    const auto errFile = hostileRoot().parent_path() / "stderr";
    Run r;
    r.out = test::capture(std::string(CORESTEER_CLI) + " " + args + " 2>'" + errFile.string() + "'",
                          &r.status);
    r.err = test::slurp(errFile);
    return r;
}

} // namespace

// The CLI end to end on the same tree: plan, snapshot, capture and preset save exit by
// themselves, and what they print or write parses.
TEST(JsonWriters, CliOnAHostileRoot) {
    const auto root = hostileRoot().string();
    const auto tmp = hostileRoot().parent_path();
    for (const char* verb : {"plan", "snapshot"}) {
        const auto r = cliBinary(std::string(verb) + " --root '" + root + "' --json");
        EXPECT_TRUE(r.status == 0 || r.status == 1) << verb << ": " << r.status << " " << r.err;
        const auto doc = parsed(r.out);
        const auto names = std::string(verb) == "plan" ? layoutNames(doc) : actionNames(doc);
        EXPECT_TRUE(contains(names, kValidIrq)) << verb;
    }
    const auto cap = (tmp / "hostile.capture").string();
    auto r = cliBinary("capture --root '" + root + "' '" + cap + "'");
    EXPECT_EQ(r.status, 0) << r.err;
    std::string error;
    const auto back = readCapture(test::slurp(cap), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->entries(), collectLocal(root).entries());

    const auto preset = (tmp / "hostile-preset.json").string();
    r = cliBinary("preset save --root '" + root + "' '" + preset + "' --json");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(parsed(r.out).at("file").get<std::string>(), preset);
    const auto saved = parsePreset(test::slurp(preset), &error);
    ASSERT_TRUE(saved) << error;
    EXPECT_TRUE(std::any_of(saved->layout.irqs.begin(), saved->layout.irqs.end(),
                            [](const IrqTarget& t) { return t.irq.action == kValidIrq; }));
    EXPECT_EQ(saved->board, hostileSnapshot().system.boardName);
}
