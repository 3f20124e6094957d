// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// One router connection, with its own worker thread (the kio sftp shape: one slave per host).
//
// Every request runs on the worker; the window never waits for the network. Answers come back
// as queued signals carrying the connection's id and immutable values, so a window that moved
// on to another connection recognises and drops late answers from an old one. Destroying a
// Connection stops its SSH waits, which end within 200 ms, and joins the thread.
//
// Measuring under load runs on the worker too, on the router's own session: the bufferbloat
// test (measure::LoadTest, ticked with the live sampler and recorded with its samples:
// connection_test.cpp) and the tuner (measure::runTune, which samples the router itself while
// the live sampler waits, and hands each sample's rates on as live(): connection_tune.cpp).
#pragma once

#include "core/layout/apply.h"
#include "core/layout/persist.h"
#include "core/live/sample.h"
#include "core/model/snapshot.h"
#include "core/ssh/target.h"
#include "ui/base/measurements.h"
#include "ui/base/reports.h"
#include "ui/base/snapshotptr.h"

#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <atomic>
#include <map>
#include <memory>
#include <optional>

class QThread;

namespace coresteer {
class Router;
}

namespace coresteer::ui {

using RatesPtr = std::shared_ptr<const live::Rates>;

// The questions a connection asks the person. Lives on the UI thread; the default answers with
// dialogs over `window`, tests answer from a script.
class Prompts : public QObject {
    Q_OBJECT
public:
    explicit Prompts(QWidget* window = nullptr, QObject* parent = nullptr);
    // An unknown host key: shown with its SHA256 fingerprint.
    virtual bool acceptHostKey(const QString& target, const QString& type,
                               const QString& fingerprint);
    // The person's answer; the dialog offers "Remember in the keyring" where a keyring answers.
    virtual std::optional<QString> password(const QString& target);
    // What a login asks: the keyring's password on its first question (`attempt` 0) when one is
    // saved for `target`, else password().
    std::optional<QString> loginPassword(const QString& target, int attempt);
    // After a login that asked for passwords: saves one the person asked to remember (only once
    // it worked), forgets one they no longer want remembered.
    void loginDone(const QString& target, bool succeeded);
    virtual std::optional<QString> passphrase(const QString& prompt);
    virtual std::optional<QStringList> keyboardInteractive(const QString& name,
                                                           const QString& instruction,
                                                           const QStringList& prompts,
                                                           const QList<bool>& echo);

private:
    QWidget* m_window;
    struct Answer {
        QString password;
        bool remember = false;
    };
    std::map<QString, Answer> m_answers; // the dialog's, until the login ends
    QSet<QString> m_fromKeyring;         // targets given the keyring's password in this login
};

class Connection : public QObject {
    Q_OBJECT
public:
    struct Spec {
        bool ssh = false;
        ssh::Target target;                 // for ssh
        QString root = QStringLiteral("/"); // on the router, or the local tree
        QString label;                      // how the window names it ("Demo router", "root@r6s")
        bool demo = false;                  // the root is the demo's private tree: model its load
        bool replay = false; // the root holds a recording's snapshot: no live sampling, no apply
    };

    Connection(quint64 id, Spec spec, Prompts* prompts, QObject* parent = nullptr);
    ~Connection() override;

    quint64 id() const { return m_id; }
    const Spec& spec() const { return m_spec; }
    bool busy() const { return m_busy > 0; }

    // Each connects first when needed. Answers: snapshotReady, applied, settled, persisted,
    // or failed.
    void refresh();
    // Runs exactly the script the person reviewed (see makeApplyScript), over `writes`.
    void apply(layout::ApplyScript script, std::vector<layout::Write> writes);
    void settle(layout::PendingAction action);
    void persist(layout::PersistScript script);
    // Stops the current SSH wait (it ends within 200 ms with a "stopped" failure).
    void cancel();
    // Samples the router's counters `hz` times a second (1..20) over one long-lived channel,
    // between the other requests; live() carries the rates of each tick. `snapshot` gives the
    // demo's model its NICs. stopLive() ends it.
    void startLive(int hz, SnapshotPtr snapshot);
    void stopLive();
    // A bufferbloat test beside the live sampler (which must run), recorded with its ticks:
    // the LAN side of a router over SSH is probed where the connection reached it, the router
    // pings the first host beyond it on this session, and the demo's model runs a test of its
    // own as the load, unless a load generator is named. Each tick's events come as
    // testEvents(), the end (stopTest(), the last phase, the recording's size limit) as
    // testFinished().
    void startTest(TestRequest request);
    void stopTest();
    // Runs the tuner (measure::runTune) with the request's candidates: the live sampler waits,
    // the tuner's samples come as live() and its progress, trials and result as tuneProgress(),
    // tuneTrial() and tuneFinished(). cancelTune() (and cancel()) end it with the baseline
    // restored.
    void startTune(TuneRequest request);
    void cancelTune();

Q_SIGNALS:
    void progress(quint64 id, const QString& text);
    void snapshotReady(quint64 id, coresteer::ui::SnapshotPtr snapshot);
    void applied(quint64 id, coresteer::ui::ApplyReportPtr report);
    void settled(quint64 id, coresteer::layout::PendingAction action);
    void persisted(quint64 id, coresteer::ui::PersistReportPtr report);
    // `what` names the request ("connect", "read", "apply", "confirm", "revert", "persist");
    // `hostKeyChanged` marks the one failure that needs its own blocking error.
    void failed(quint64 id, const QString& what, const QString& message, bool hostKeyChanged);
    void idle(quint64 id);
    // The SSH connection is up: the address it reached (after ssh_config), for latency probes.
    void reached(quint64 id, const QString& host, int port);
    void live(quint64 id, coresteer::ui::RatesPtr rates);
    // The sampler could not read the router this tick (it retries at the next).
    void liveProblem(quint64 id, const QString& message);
    // What a tick of the bufferbloat test wrote into its recording (before the tick's rates),
    // and its end: the recording, or nullptr with the reason in `problem`.
    void testEvents(quint64 id, coresteer::ui::TestEventsPtr events);
    void testFinished(quint64 id, coresteer::ui::RecordingPtr recording, const QString& problem);
    // The tuner: where it is, each trial's start (candidate -1: its end) on the recording's
    // clock, and its result with the whole run's recording (nullptr with `problem` when the
    // recording could not be kept, or the tune could not start).
    void tuneProgress(quint64 id, const coresteer::measure::TuneProgress& progress);
    void tuneTrial(quint64 id, double t, int block, int candidate);
    void tuneFinished(quint64 id, coresteer::ui::TuneResultPtr result,
                      coresteer::ui::RecordingPtr recording, const QString& problem);

private:
    class Worker;
    class Asker;
    template <typename Fn> void post(const QString& what, Fn&& fn);
    void liveTick();
    // On the worker (connection_test.cpp, connection_tune.cpp).
    void beginTest(TestRequest request);
    void testTick(bool sampled, bool failed);
    void finishTest(const QString& problem);
    void runTuneHere(TuneRequest request);

    quint64 m_id;
    Spec m_spec;
    QThread* m_thread;
    std::shared_ptr<std::atomic<bool>> m_stop;
    std::shared_ptr<std::atomic<bool>> m_tuneCancel;
    std::unique_ptr<Asker> m_asker;
    std::unique_ptr<Router> m_router; // used only on the worker thread
    QObject* m_worker;                // lives on m_thread
    struct Live;
    std::unique_ptr<Live> m_live; // used only on the worker thread
    int m_busy = 0;
};

} // namespace coresteer::ui

Q_DECLARE_METATYPE(coresteer::ui::RatesPtr)
