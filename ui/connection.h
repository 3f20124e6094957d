// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// One router connection, with its own worker thread (the kio sftp shape: one slave per host).
//
// Every request runs on the worker; the window never waits for the network. Answers come back
// as queued signals carrying the connection's id and immutable values, so a window that moved
// on to another connection recognises and drops late answers from an old one. Destroying a
// Connection stops its SSH waits, which end within 200 ms, and joins the thread.
#pragma once

#include "core/layout/apply.h"
#include "core/layout/persist.h"
#include "core/live/sample.h"
#include "core/model/snapshot.h"
#include "core/ssh/target.h"
#include "ui/base/reports.h"
#include "ui/base/snapshotptr.h"

#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

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
using TextsPtr = std::shared_ptr<const live::SampleTexts>;

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
    // A router over SSH: its own ping to `host` runs beside the sampler until stopped, and its
    // replies come as routerLatency().
    void startRouterProbe(const QString& host);
    void stopRouterProbe();
    // The demo only: its model runs a test now (DemoLoad::startTest).
    void startDemoTest(double idleSeconds, double phaseSeconds);
    // While on, every tick's files also go out in sampled(), before its rates (for recordings).
    void setRecording(bool on);

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
    void sampled(quint64 id, coresteer::ui::TextsPtr texts);
    // The sampler could not read the router this tick (it retries at the next).
    void liveProblem(quint64 id, const QString& message);
    // The demo's model after its step this tick: the round trip it models to a host past the
    // WAN, and its test's phase ("idle", "download", "upload", "download and upload").
    void demoModel(quint64 id, double latencyMs, const QString& phase);
    // The router's own ping: the replies (ms) and lost echoes (nullopt) since the last tick.
    void routerLatency(quint64 id, const QVector<std::optional<double>>& replies);

private:
    class Worker;
    class Asker;
    template <typename Fn> void post(const QString& what, Fn&& fn);
    void liveTick();

    quint64 m_id;
    Spec m_spec;
    QThread* m_thread;
    std::shared_ptr<std::atomic<bool>> m_stop;
    std::shared_ptr<std::atomic<bool>> m_recordTexts;
    std::unique_ptr<Asker> m_asker;
    std::unique_ptr<Router> m_router; // used only on the worker thread
    QObject* m_worker;                // lives on m_thread
    struct Live;
    std::unique_ptr<Live> m_live; // used only on the worker thread
    int m_busy = 0;
};

} // namespace coresteer::ui

Q_DECLARE_METATYPE(coresteer::ui::RatesPtr)
Q_DECLARE_METATYPE(coresteer::ui::TextsPtr)
