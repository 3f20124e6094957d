// Captures: a router's collected files in one file, read back by the collector's own parser, and
// laid out as a tree that the local collector reads to the same snapshot.
#include "board_expect.h"
#include "core/capture.h"
#include "core/collect_local.h"
#include "core/snapshot_json.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace coresteer;
namespace fs = std::filesystem;

namespace {

std::string snapshotJson(const FileBundle& b) {
    auto snap = buildSnapshot(b);
    snap.origin.clear();
    return toJson(snap).dump();
}

} // namespace

class CaptureBoard : public ::testing::TestWithParam<std::string> {};

TEST_P(CaptureBoard, RoundTripsAndMaterializesToTheSameSnapshot) {
    const auto root = fs::path(CORESTEER_FIXTURES) / "boards" / GetParam();
    const auto bundle = collectLocal(root);
    std::string error;
    const auto back = readCapture(writeCapture(bundle), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->entries(), bundle.entries());

    const auto dir = fs::path(CORESTEER_TEST_TMP) / "capture" / GetParam();
    fs::remove_all(dir);
    ASSERT_TRUE(materialize(*back, dir, &error)) << error;
    // Entry by entry first, for a readable failure; then the snapshot as a whole.
    const auto again = collectLocal(dir);
    for (const auto& [path, e] : bundle.entries()) {
        const auto* o = again.get(path);
        EXPECT_TRUE(o && *o == e) << path << ": " << (o ? o->data.substr(0, 200) : "absent")
                                  << " instead of " << e.data.substr(0, 200);
    }
    for (const auto& [path, e] : again.entries())
        EXPECT_TRUE(bundle.get(path)) << path << " appeared";
    EXPECT_TRUE(snapshotJson(again) == snapshotJson(bundle));
}

INSTANTIATE_TEST_SUITE_P(Boards, CaptureBoard, ::testing::ValuesIn(coresteer::test::boardNames()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             std::string n = p.param;
                             for (auto& c : n)
                                 if (c == '-')
                                     c = '_';
                             return n;
                         });

TEST(Capture, RefusesWhatIsNotACapture) {
    std::string error;
    EXPECT_FALSE(readCapture("hello\n", &error));
    EXPECT_NE(error.find("line 1"), std::string::npos) << error;
    EXPECT_FALSE(readCapture("coresteer-capture 1 x\n", &error));
    EXPECT_NE(error.find("token"), std::string::npos) << error;
}

TEST(Capture, RefusesACutShortCaptureAndPathsOutsideTheSpec) {
    FileBundle b;
    b.add("proc/interrupts", {BundleEntry::Kind::File, "           CPU0\n"});
    const auto text = writeCapture(b);
    std::string error;
    EXPECT_FALSE(readCapture(text.substr(0, text.size() - 10), &error));
    EXPECT_NE(error.find("cut short"), std::string::npos) << error;

    const auto token = text.substr(20, text.find('\n') - 20);
    const std::string hostile = "coresteer-capture 1 " + token + "\n" + token +
                                " F ../../etc/passwd\nroot\n" + token + " E 0\n" + token +
                                " DONE\n";
    EXPECT_FALSE(readCapture(hostile, &error));
    EXPECT_NE(error.find("unexpected path"), std::string::npos) << error;
}

TEST(Capture, MaterializeRefusesPathsThatLeaveTheDirectory) {
    FileBundle b;
    b.add("../escape", {BundleEntry::Kind::File, "x"});
    std::string error;
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "capture" / "escape";
    EXPECT_FALSE(materialize(b, dir / "root", &error));
    EXPECT_FALSE(fs::exists(dir / "escape"));
}
