// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What coresteer-cli's verbs share: their options, opening the target, reading its snapshot and a
// layout file. Internal to cli/: cli.cpp parses the command line and calls the verbs, which live
// by group in read.cpp (snapshot, capture, plan, diff, preset), apply.cpp (apply, confirm,
// revert), persist.cpp (persist, unpersist), live.cpp (monitor, recording) and fleet.cpp
// (export ansible), tune.cpp (tune); common.cpp holds what they share, load_options.cpp the
// load test's options.
#pragma once

#include "cli/terminal_prompter.h"
#include "core/layout/fleet.h"
#include "core/layout/layout_json.h"
#include "core/measure/loadtest.h"
#include "core/model/load.h"
#include "core/model/snapshot.h"
#include "core/router/router.h"

#include <atomic>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace coresteer::cli {

struct Options {
    std::string root, target, knownHosts, identity, sshConfig;
    bool json = false, acceptNew = false, noConfirm = false, noRevert = false;
    bool noSteeringOverride = false, disableIrqbalance = false, irqbalanceBan = false, csv = false;
    bool overrideBootScripts = false;
    int revertAfter = 60, rate = 10;
    double duration = 10;
    double measure = 0; // plan: seconds of the router's load to measure first (0: none)
    std::string record;
    // monitor --bufferbloat: the test in phases, its loads and its probes beyond the router.
    bool bufferbloat = false;
    std::vector<std::string> loads, probes;
    std::string congestion;
    std::string postUrl, caFile;   // an HTTP(S) --load's uploads and its extra CA
    std::vector<std::string> irtt; // irtt servers to probe, HOST[:PORT]
    double phaseSeconds = 10;
    std::string governor = "schedutil";  // plan: for slow cpufreq policies; "keep": none
    std::vector<std::string> positional; // after the target
    // apply only: several routers, from the command line and an inventory file.
    std::vector<std::string> targets; // every TARGET given (target is the first)
    std::string inventory, inventoryGroup;
    int parallel = 4;
    // tune: the candidates beyond the planner's, and the experiment.
    std::vector<std::string> candidates;
    bool noPlan = false, keepWinner = false, allowConflicts = false;
    double budget = 1800, idleSeconds = 2, tunePhaseSeconds = 5;
    double margin = 3, latencyMargin = 5;
    std::string phases = "download,upload", objective = "throughput";
};

// The demo router's private copy: a directory this process made (mode 0700), removed with it.
struct DemoDir {
    std::string path;
    ~DemoDir();
};

// A router with the prompter its SSH session asks (the prompter must outlive the router).
struct Opened {
    std::unique_ptr<ssh::TerminalPrompter> prompter;
    std::unique_ptr<Router> router;
    std::shared_ptr<DemoDir> demo; // the target `demo`: the GUI's demo router, laid out here
    Router* operator->() const { return router.get(); }
};

struct Acquired {
    Snapshot snap;
    std::string where;
};

// "coresteer-cli: MSG" and the hint to --help on err; returns 2.
int usageError(std::ostream& err, const std::string& msg);
// Parses the target options shared by every verb; false after printing a usage error.
// Sorts the words after the verb: ssh:// words are targets; of the bare words, those beyond what
// the verb takes (`positionals`) are targets too (ssh_config aliases), first or, with
// `targetsLast`, last ("preset load FILE alias"). False after printing a usage error.
bool finishTargets(Options& o, std::size_t positionals, std::ostream& err, int& code,
                   bool targetsLast = false);
// For the verbs that take nothing but targets: 0, or the code of the usage error it printed.
int noArguments(const Options& o, std::ostream& err);
// Opens the target: connects over SSH, or checks the local root. nullopt after printing why.
std::optional<Opened> openTarget(const Options& o, std::ostream& err);
// Reads the snapshot of the target; nullopt after printing the error. `keep`, when given,
// receives the open connection for more work on the same router.
std::optional<Acquired> acquire(const Options& o, std::ostream& err, Opened* keep = nullptr);
void printDiagnostics(const Acquired& a, std::ostream& err);
// The snapshot, with its warnings printed; nullopt when it is unusable (no IRQs or CPUs).
std::optional<Acquired> acquireUsable(const Options& o, std::ostream& err, Opened* keep = nullptr);
// A layout file, or a preset file (whose layout is used).
std::optional<layout::Layout> readLayoutFile(const std::string& path, std::ostream& err,
                                             std::optional<layout::Preset>* preset = nullptr);
// The LAYOUT argument and the target's snapshot; nullopt after printing the error.
std::optional<std::pair<layout::Layout, Acquired>> layoutAndTarget(const Options& o,
                                                                   std::ostream& err);

// The load test of monitor --bufferbloat and tune, from --load, --post-url, --ca-file,
// --congestion, --probe and --irtt: 0, or the code of the usage error it printed. A load of
// HTTP downloads without a --post-url runs downloads only (`downloadOnly`).
int loadTestSpec(const Options& o, measure::LoadTest::Spec& test, bool& downloadOnly,
                 std::ostream& err);

// While one lives, SIGINT, SIGTERM and SIGHUP (a closed terminal) set flag() (monitor, plan
// --measure and tune end their loop and keep what they have), and say `first` on stderr at the
// first signal and `again` at every one after it; the handlers before it come back with its end.
class Interruptible {
public:
    explicit Interruptible(const char* first = nullptr, const char* again = nullptr);
    ~Interruptible();
    Interruptible(const Interruptible&) = delete;
    Interruptible& operator=(const Interruptible&) = delete;
    static const std::atomic<bool>& flag();

private:
    void (*m_int)(int) = nullptr;
    void (*m_term)(int) = nullptr;
    void (*m_hup)(int) = nullptr;
};

// The router's interrupts under load for `seconds`, sampled twice a second (plan --measure);
// nullopt after printing why. SIGINT ends it early with what it has.
std::optional<MeasuredLoad> measureLoad(Router& r, double seconds, std::ostream& err);

// The verbs. Each returns the exit code.
int snapshotCommand(const Options& o, std::ostream& out, std::ostream& err);
int planCommand(const Options& o, std::ostream& out, std::ostream& err);
int diffCommand(const Options& o, std::ostream& out, std::ostream& err);
int captureCommand(const Options& o, std::ostream& out, std::ostream& err);
int presetCommand(const std::string& what, Options o, std::ostream& out, std::ostream& err);
int applyCommand(const Options& o, std::ostream& out, std::ostream& err);
int confirmCommand(const Options& o, std::ostream& out, std::ostream& err);
int revertCommand(const Options& o, std::ostream& out, std::ostream& err);
int persistCommand(const Options& o, std::ostream& out, std::ostream& err);
int unpersistCommand(const Options& o, std::ostream& out, std::ostream& err);
int monitorCommand(const Options& o, std::ostream& out, std::ostream& err);
int tuneCommand(const Options& o, std::ostream& out, std::ostream& err);
int recordingCommand(const std::string& what, const std::vector<std::string>& files, bool json,
                     std::ostream& out, std::ostream& err);
int exportCommand(const std::string& presetFile, const std::string& output,
                  const layout::FleetOptions& fo, std::ostream& out, std::ostream& err);

} // namespace coresteer::cli
