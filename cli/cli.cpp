// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/cli.h"

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

namespace coresteer {

using namespace coresteer::layout;

using namespace cli;

namespace {

constexpr const char* kDescription =
    R"(coresteer-cli: read, plan, apply and watch a Linux router's interrupt and packet steering.

TARGET is --root DIR (a /proc and /sys tree on this machine; "/" for this machine itself) or
ssh://[user@]host[:port] or an ssh_config alias (a router; --root DIR is then a directory on
the router, default /). `coresteer-cli COMMAND --help` describes a command; `man coresteer-cli`
describes them all.
)";

constexpr const char* kExitCodes =
    R"(exit codes: 0 ok, 1 partial (see the warnings; for diff: targets that cannot apply; for
            confirm and revert: nothing was pending), 2 unusable input, bad usage or a
            connection error)";

} // namespace

int runCli(const std::vector<std::string>& args, std::ostream& plainOut, std::ostream& plainErr) {
    // What a person reads passes through terminalSafe: names and messages from a router or a
    // file cannot drive the user's terminal. JSON goes out as it is (its escapes are its own).
    utf8::TerminalSafeStream err(plainErr), textOut(plainOut);
    std::ostream* outp = &textOut;
    std::ostream& out = textOut;
    CLI::App app{kDescription, "coresteer-cli"};
    app.footer(kExitCodes);
    app.set_help_flag("-h,--help", "this text, or a command's");
    app.set_version_flag("--version", "coresteer-cli " CORESTEER_VERSION, "the version");
    app.require_subcommand(1, 1);
    app.get_formatter()->column_width(34);
    bool verbose = false;
    app.add_flag("-v,--verbose", verbose,
                 "say what happens: coresteer.ssh, .collect, .apply, .persist, .live, .fleet");
    app.fallthrough(); // --verbose after the command too

    Options o;
    // The options every command that works on a router takes, and its words.
    auto target = [&](CLI::App* c, const std::string& words, bool json = true) {
        c->add_option("--root", o.root, "a /proc and /sys tree here; over SSH one on the router")
            ->type_name("DIR");
        c->add_option("--known-hosts", o.knownHosts,
                      "another known_hosts file, for the router and every ProxyJump host")
            ->type_name("FILE");
        c->add_option("-i,--identity", o.identity, "a private key to try")->type_name("FILE");
        c->add_option("-F,--ssh-config", o.sshConfig, "another ssh_config file (none: none)")
            ->type_name("FILE");
        c->add_flag("--accept-new-host-key", o.acceptNew,
                    "trust a host key seen for the first time, a jump host's too (never a "
                    "changed one)");
        if (json)
            c->add_flag("--json", o.json, "answer in JSON");
        c->add_option("arguments", o.positional, words)->type_name("");
    };
    // The load test's options, for monitor --bufferbloat and tune.
    auto loadOptions = [&](CLI::App* c) {
        c->add_option("--load", o.loads,
                      "the load generator: iperf3://HOST[:PORT], an iperf3 server beyond "
                      "the router (iperf3 runs here), or http:// or https:// URLs (up to 8, "
                      "each a --load) to download from in parallel, as the web's tests "
                      "load; without it, run your own test")
            ->type_name("URL");
        c->add_option("--post-url", o.postUrl,
                      "with an HTTP(S) --load: the URL that takes the uploads, by POST; "
                      "without it the test downloads only, for --phase-seconds")
            ->type_name("URL");
        c->add_option("--ca-file", o.caFile,
                      "with an HTTP(S) --load: a CA bundle (PEM) to trust besides the "
                      "system's, for a server with a certificate of its own")
            ->check(CLI::ExistingFile)
            ->type_name("FILE");
        c->add_option("--probe", o.probes,
                      "a host past the router's WAN to probe by ICMP echo (a TCP handshake "
                      "with the iperf3 server's port where ICMP is not open to this user)")
            ->type_name("HOST");
        c->add_option("--irtt", o.irtt,
                      "an irtt server past the router's WAN (irtt runs here, a packet each "
                      "100 ms): the round trip and each way's delay, so the queue that grows "
                      "is named (upload or download)")
            ->type_name("HOST[:PORT]");
        c->add_option("--congestion", o.congestion,
                      "the load's TCP congestion control at both ends (iperf3 --congestion), "
                      "for example cubic, as most servers send; default the systems' own")
            ->type_name("ALGO");
    };
    struct Verb {
        const char* name;
        const char* help;
        const char* detail;
        const char* words;
        std::size_t positionals;
        int (*run)(const Options&, std::ostream&, std::ostream&);
    };
    const Verb verbs[] = {
        {"snapshot", "the CPU, IRQ and queue layout, in one SSH command", "", "TARGET", 0,
         &snapshotCommand},
        {"capture", "save what a snapshot reads into one FILE (for a bug report)",
         "The app opens a capture read-only (Router > Open capture).", "TARGET FILE", 1,
         &captureCommand},
        {"plan", "a proposed layout with a reason for every choice",
         "--json prints a layout file that diff, apply and persist take as it is.", "TARGET", 0,
         &planCommand},
        {"diff", "what LAYOUT would change on TARGET", "LAYOUT is a layout or a preset file.",
         "TARGET LAYOUT", 1, &diffCommand},
        {"apply", "write LAYOUT now, with an automatic revert unless confirmed",
         "The old values are kept first, and a revert job on the router restores them after\n"
         "--revert-after seconds unless confirmed; apply confirms by itself over a new connection\n"
         "unless --no-confirm. Several TARGETs, or --inventory: N routers at a time, one line per\n"
         "router. Exit 0 all applied, 1 some targets refused or not applicable, 2 nothing\n"
         "written (the worst of the routers').",
         "TARGET... LAYOUT", 1, &applyCommand},
        {"confirm", "keep what the last apply wrote (cancels the revert)", "", "TARGET", 0,
         &confirmCommand},
        {"revert", "restore what the last apply replaced, now", "", "TARGET", 0, &revertCommand},
        {"persist", "make LAYOUT come back at every boot and interface event",
         "OpenWrt gets /etc/hotplug.d/net/95-coresteer (kept by /etc/sysupgrade.conf), other\n"
         "Linux a systemd unit and a udev rule. The running values do not change (apply does\n"
         "that). Exit 1 when a conflict remains (packet steering, irqbalance).",
         "TARGET LAYOUT", 1, &persistCommand},
        {"unpersist", "remove everything persist wrote", "", "TARGET", 0, &unpersistCommand},
        {"tune", "find the best layout for TARGET by experiment, under load",
         "Tries the router's layout (the baseline), the planner's recommendation and\n"
         "alternatives, the built-in presets of its board and each --candidate under the load, in\n"
         "randomised blocks with the baseline twice in each; a candidate wins only where its\n"
         "gain's 95 % interval clears zero and the baseline's own noise. Each trial is applied\n"
         "with the automatic revert armed and reverted after it; the router ends on its baseline.\n"
         "Exit 0 a verdict (a winner, or no real difference), 1 cancelled, 2 an error or a lost\n"
         "connection (the router then restores its baseline by itself).",
         "TARGET", 0, &tuneCommand},
        {"monitor", "live per-core load, IRQ rates and throughput",
         "Over one SSH channel; --csv prints \"uptime,metric,target,cpu,value\" rows, --json one\n"
         "object per sample.",
         "TARGET", 0, &monitorCommand},
    };
    const Verb* chosen = nullptr;
    for (const auto& v : verbs) {
        auto* c = app.add_subcommand(v.name, v.help);
        if (*v.detail)
            c->footer(v.detail);
        target(c, v.words);
        c->callback([&chosen, &v] { chosen = &v; });
        const std::string name = v.name;
        if (name == "plan") {
            c->add_option("--governor", o.governor,
                          "the cpufreq governor for a slow policy (powersave, userspace, "
                          "conservative) on the cores the layout gives network work: schedutil "
                          "(the default), performance, or keep (leave governors as they are)")
                ->check(CLI::IsMember({"schedutil", "performance", "keep"}))
                ->type_name("G");
            c->add_option("--measure", o.measure,
                          "first measure the router's interrupts for S seconds while a load "
                          "runs through it, and propose interrupt coalescing (rx-usecs, "
                          "rx-frames) for a NIC whose receive vector fires fast on a saturated "
                          "CPU")
                ->check(CLI::Range(1.0, 3600.0))
                ->type_name("S");
        } else if (name == "apply") {
            c->add_option("--revert-after", o.revertAfter,
                          "seconds until the router restores the old values (60)")
                ->check(CLI::Range(5, 86400))
                ->type_name("S");
            auto* noConfirm =
                c->add_flag("--no-confirm", o.noConfirm, "leave the confirm to `confirm`");
            c->add_flag("--no-revert", o.noRevert, "arm no revert job")->excludes(noConfirm);
            c->add_option("--inventory", o.inventory, "the routers of an Ansible INI inventory")
                ->type_name("FILE");
            c->add_option("--inventory-group", o.inventoryGroup, "only the hosts of this group")
                ->type_name("G");
            c->add_option("--parallel", o.parallel, "routers at a time (default 4)")
                ->check(CLI::Range(1, 64))
                ->type_name("N");
        } else if (name == "persist") {
            c->add_flag("--no-packet-steering-override", o.noSteeringOverride,
                        "leave OpenWrt's packet steering service as it is");
            auto* disable = c->add_flag("--disable-irqbalance", o.disableIrqbalance,
                                        "stop and disable irqbalance (unpersist enables it again)");
            c->add_flag("--irqbalance-ban", o.irqbalanceBan,
                        "leave irqbalance running with the layout's IRQs banned in it, so that "
                        "it balances only the others (unpersist lifts the bans)")
                ->excludes(disable);
            c->add_flag("--override-boot-scripts", o.overrideBootScripts,
                        "disable the init scripts that rewrite masks at boot, after the hotplug "
                        "script, and apply the layout again after /etc/rc.local (unpersist undoes "
                        "both)");
        } else if (name == "tune") {
            loadOptions(c);
            c->add_option("--candidate", o.candidates,
                          "a layout or preset file to try besides the planner's (each a "
                          "--candidate; one that changes nothing is left out: a placebo, a change "
                          "that should "
                          "not matter, shows the noise)")
                ->type_name("FILE");
            c->add_flag("--no-plan", o.noPlan,
                        "leave out the planner's recommendation and alternatives (and the "
                        "board's presets)");
            c->add_option("--budget", o.budget,
                          "seconds the whole run may take (default 1800); a budget that cannot "
                          "reach the plan's first look is refused, and one that ends the run "
                          "before a verdict leaves it open, with no winner")
                ->check(CLI::Range(10.0, 7.0 * 86400))
                ->type_name("S");
            c->add_option("--phases", o.phases,
                          "the load's phases in each trial, from download, upload and both "
                          "(default download,upload)")
                ->type_name("LIST");
            c->add_option("--phase-seconds", o.tunePhaseSeconds, "each load phase (default 5)")
                ->check(CLI::Range(1.0, 3600.0))
                ->type_name("S");
            c->add_option("--margin", o.margin,
                          "the smallest gain worth a change, in percent of the baseline "
                          "(default 3): a winner's gain must clear it at the lower end of its "
                          "95 % interval, and a guard (throughput, a core's load) may lose at "
                          "most this much at the upper end of its loss's")
                ->check(CLI::Range(0.0, 100.0))
                ->type_name("PCT");
            c->add_option("--latency-margin", o.latencyMargin,
                          "the latency a winner may lose at most, in ms (default 5, or the "
                          "margin's percent of the baseline's latency if that is more): the "
                          "upper end of its latency loss's 95 % interval, median and p90, must "
                          "stay below it")
                ->check(CLI::Range(0.0, 10000.0))
                ->type_name("MS");
            c->add_option("--idle-seconds", o.idleSeconds,
                          "each trial's idle spell after the candidate is applied: it settles, "
                          "and the latency's baseline is measured (default 2)")
                ->check(CLI::Range(1.0, 60.0))
                ->type_name("S");
            c->add_option("--objective", o.objective,
                          "what wins: throughput (default; latency must not get worse), "
                          "latency (throughput must not get worse), or headroom: the busiest "
                          "core's load under the same load, lower is better (throughput and "
                          "latency must not get worse), for a line that caps the load before "
                          "the router does")
                ->check(CLI::IsMember({"throughput", "latency", "headroom"}))
                ->type_name("O");
            c->add_flag("--allow-conflicts", o.allowConflicts,
                        "tune even while irqbalance runs on the router (it moves IRQs under the "
                        "trials; without this the tune refuses to start)");
            c->add_flag("--keep-winner", o.keepWinner,
                        "leave the winner in force at the end, with the automatic revert armed "
                        "(--revert-after), for `confirm`");
            c->add_option("--revert-after", o.revertAfter,
                          "with --keep-winner: seconds until the router restores its baseline "
                          "(60)")
                ->check(CLI::Range(5, 86400))
                ->type_name("S");
            c->add_option("--record", o.record, "keep the whole run in FILE, a recording")
                ->required()
                ->type_name("FILE");
        } else if (name == "monitor") {
            c->add_option("--rate", o.rate, "samples a second, 1 to 20 (default 10)")
                ->check(CLI::Range(1, 20))
                ->type_name("HZ");
            c->add_option("--duration", o.duration, "seconds (default 10; 0 until interrupted)")
                ->check(CLI::Range(0.0, 7.0 * 86400))
                ->type_name("S");
            auto* csv = c->add_flag("--csv", o.csv, "\"uptime,metric,target,cpu,value\" rows");
            c->get_option("--json")->excludes(csv);
            c->add_option("--record", o.record,
                          "save the snapshot, the layout in force and every sample in FILE, a "
                          "recording the app replays")
                ->type_name("FILE");
            c->add_flag("--bufferbloat", o.bufferbloat,
                        "run a bufferbloat test into the --record FILE: 3 s idle, then the "
                        "load (each --load in turn: download, upload and both), with latency "
                        "probed every 100 ms to the router's SSH port and to each --probe host");
            loadOptions(c);
            c->add_option("--phase-seconds", o.phaseSeconds,
                          "each load phase of a --bufferbloat test (default 10)")
                ->check(CLI::Range(1.0, 3600.0))
                ->type_name("S");
        }
    }

    // preset save TARGET FILE | preset load FILE TARGET
    auto* preset = app.add_subcommand("preset", "save a layout as a preset; what one would change");
    preset->require_subcommand(1, 1);
    std::string presetVerb;
    for (const char* what : {"save", "load"}) {
        auto* c = preset->add_subcommand(what, std::string(what) == "save"
                                                   ? "save TARGET's current layout as a preset file"
                                                   : "what a preset would change on TARGET");
        target(c, std::string(what) == "save" ? "TARGET FILE" : "FILE TARGET");
        c->callback([&presetVerb, what] { presetVerb = what; });
    }

    // recording summary FILE | csv FILE | compare BEFORE AFTER
    auto* recording = app.add_subcommand("recording", "read recordings (monitor --record)");
    recording->require_subcommand(1, 1);
    std::string recordingVerb;
    std::vector<std::string> files;
    bool recordingJson = false;
    for (const auto& [what, help, words] :
         {std::tuple{"summary", "per-core peak and mean load, throughput and the bufferbloat grade",
                     "FILE"},
          std::tuple{"csv", "one CSV row per sample", "FILE"},
          std::tuple{"compare", "two recordings side by side", "BEFORE AFTER"}}) {
        auto* c = recording->add_subcommand(what, help);
        c->add_option("files", files, words)->required();
        if (std::string(what) == "summary")
            c->add_flag("--json", recordingJson, "answer in JSON");
        c->callback([&recordingVerb, w = what] { recordingVerb = w; });
    }

    // export ansible --preset FILE
    auto* exp = app.add_subcommand("export", "hand a layout to another tool");
    exp->require_subcommand(1, 1);
    auto* ansible = exp->add_subcommand("ansible", "an Ansible playbook for a fleet of routers");
    ansible->footer(
        "Raw tasks only (the routers need no Python): the playbook applies FILE with the\n"
        "automatic revert, confirms it and persists it on every host of the group, resolved on\n"
        "each router. A second run changes nothing. Host variables: coresteer_root,\n"
        "coresteer_revert_after, coresteer_any_board, coresteer_persist.");
    std::string presetFile, output;
    FleetOptions fo;
    bool exportAnsible = false;
    ansible->add_option("--preset,--layout", presetFile, "a preset or layout file")
        ->required()
        ->type_name("FILE");
    ansible->add_option("--inventory-group", fo.group, "the hosts (default routers)")
        ->type_name("G");
    ansible->add_option("-o,--output", output, "write the playbook to FILE, not to stdout")
        ->type_name("FILE");
    bool noOverride = false;
    ansible->add_flag("--no-packet-steering-override", noOverride,
                      "leave OpenWrt's packet steering service as it is");
    auto* disableIrqbalance = ansible->add_flag(
        "--disable-irqbalance", fo.persist.disableIrqbalance, "stop and disable irqbalance");
    ansible
        ->add_flag("--irqbalance-ban", fo.persist.banInIrqbalance,
                   "leave irqbalance running where a router has it, with the layout's IRQs "
                   "banned in it (unpersist lifts the bans)")
        ->excludes(disableIrqbalance);
    ansible->callback([&exportAnsible] { exportAnsible = true; });

    if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
        const auto subs =
            app.get_subcommands([&](CLI::App* c) { return c->get_name() == args[0]; });
        if (subs.empty())
            return usageError(err, "unknown command '" + args[0] + "'");
    }
    try {
        std::vector<std::string> reversed(args.rbegin(), args.rend());
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return 0;
    } catch (const CLI::CallForVersion& e) {
        out << e.what() << "\n";
        return 0;
    } catch (const CLI::ParseError& e) {
        if (args.empty())
            return usageError(err, "no command");
        return usageError(err, e.what());
    }

    // --verbose: every category, on stderr, one line each (apply's workers write in parallel).
    struct Quiet {
        ~Quiet() {
            log::setSink(nullptr);
            for (auto* const* c = log::categories(); *c; ++c)
                (*c)->enabled = false;
        }
    } quiet;
    if (verbose) {
        auto lock = std::make_shared<std::mutex>();
        log::setSink([&err, lock](const log::Category& c, std::string_view m) {
            const std::lock_guard guard(*lock);
            err << "coresteer-cli: [" << c.name << "] " << m << "\n" << std::flush;
        });
        for (auto* const* c = log::categories(); *c; ++c)
            (*c)->enabled = true;
    }
    if (o.json || recordingJson) {
        textOut.flush();
        outp = &plainOut;
    }
    if (!presetVerb.empty())
        return presetCommand(presetVerb, o, *outp, err);
    if (!recordingVerb.empty())
        return recordingCommand(recordingVerb, files, recordingJson, *outp, err);
    if (exportAnsible) {
        fo.persist.packetSteeringOverride = !noOverride;
        return exportCommand(presetFile, output, fo, *outp, err);
    }
    if (!chosen)
        return usageError(err, "no command");
    int code = 2;
    if (!finishTargets(o, chosen->positionals, err, code))
        return code;
    if (chosen->run != &applyCommand && (o.targets.size() > 1 || !o.inventory.empty()))
        return usageError(err, "only apply takes several targets or an inventory");
    return chosen->run(o, *outp, err);
}

} // namespace coresteer
