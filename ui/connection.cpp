// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/connection.h"

#include "core/router/router.h"
#include "ui/connection_live.h"
#include "ui/keyring.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <functional>
#include <future>

namespace coresteer::ui {

using namespace coresteer::layout;
using namespace coresteer::live;

// ---- Prompts: dialogs on the UI thread ----

Prompts::Prompts(QWidget* window, QObject* parent) : QObject(parent), m_window(window) {}

bool Prompts::acceptHostKey(const QString& target, const QString& type,
                            const QString& fingerprint) {
    QMessageBox box(QMessageBox::Question, tr("Unknown host key"),
                    tr("coresteer has not seen %1 before.").arg(target.toHtmlEscaped()),
                    QMessageBox::NoButton, m_window);
    box.setInformativeText(
        tr("It offers this %1 key:<br><tt>%2</tt><br><br>Compare it with the key on the router "
           "(<tt>dropbearkey -y -f /etc/dropbear/dropbear_ed25519_host_key</tt>, or "
           "<tt>ssh-keygen -lf</tt> on its host key). If they match, trust it: it is added to "
           "known_hosts and checked at every later connection.")
            .arg(type.toHtmlEscaped(), fingerprint.toHtmlEscaped()));
    auto* trust = box.addButton(tr("Trust and connect"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == static_cast<QAbstractButton*>(trust);
}

std::optional<QString> Prompts::password(const QString& target) {
    QDialog d(m_window);
    d.setWindowTitle(tr("Password"));
    auto* layout = new QVBoxLayout(&d);
    const bool refused = m_fromKeyring.contains(target);
    if (refused)
        layout->addWidget(new QLabel(tr("The password saved in the keyring was refused."), &d));
    layout->addWidget(new QLabel(tr("Password for %1:").arg(target), &d));
    auto* edit = new QLineEdit(&d);
    edit->setObjectName(QStringLiteral("password"));
    edit->setEchoMode(QLineEdit::Password);
    layout->addWidget(edit);
    // Offered only where a keyring answers: never written to disk in clear.
    auto* remember = new QCheckBox(tr("&Remember in the keyring"), &d);
    remember->setObjectName(QStringLiteral("remember"));
    remember->setToolTip(tr("Saved in the desktop keyring once the login works"));
    remember->setChecked(refused);
    remember->setVisible(keyring::available());
    layout->addWidget(remember);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &d);
    connect(buttons, &QDialogButtonBox::accepted, &d, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    layout->addWidget(buttons);
    if (d.exec() != QDialog::Accepted)
        return std::nullopt;
    if (keyring::available())
        m_answers[target] = {edit->text(), remember->isChecked()};
    return edit->text();
}

std::optional<QString> Prompts::loginPassword(const QString& target, int attempt) {
    if (attempt == 0) {
        m_answers.erase(target);
        m_fromKeyring.remove(target);
        if (keyring::available())
            if (auto saved = keyring::read(keyring::keyFor(target))) {
                m_fromKeyring.insert(target);
                return saved;
            }
    }
    return password(target);
}

void Prompts::loginDone(const QString& target, bool succeeded) {
    const auto it = m_answers.find(target);
    if (succeeded && it != m_answers.end()) {
        if (it->second.remember)
            keyring::write(keyring::keyFor(target), it->second.password);
        else if (m_fromKeyring.contains(target))
            keyring::remove(keyring::keyFor(target)); // refused, and not to be remembered
    }
    if (it != m_answers.end()) {
        it->second.password.fill(QLatin1Char(' '));
        m_answers.erase(it);
    }
    m_fromKeyring.remove(target);
}

std::optional<QString> Prompts::passphrase(const QString& prompt) {
    bool ok = false;
    const auto text = QInputDialog::getText(m_window, tr("Key passphrase"), prompt,
                                            QLineEdit::Password, QString(), &ok);
    return ok ? std::optional<QString>(text) : std::nullopt;
}

std::optional<QStringList> Prompts::keyboardInteractive(const QString& name,
                                                        const QString& instruction,
                                                        const QStringList& prompts,
                                                        const QList<bool>& echo) {
    QStringList answers;
    for (int i = 0; i < prompts.size(); ++i) {
        bool ok = false;
        const auto text = QInputDialog::getText(
            m_window, name.isEmpty() ? tr("Login") : name,
            instruction.isEmpty() ? prompts[i] : instruction + QLatin1Char('\n') + prompts[i],
            echo.value(i) ? QLineEdit::Normal : QLineEdit::Password, QString(), &ok);
        if (!ok)
            return std::nullopt;
        answers << text;
    }
    return answers;
}

// ---- Asker: the session's prompter, which asks Prompts on the UI thread ----

class Connection::Asker : public ssh::Prompter {
public:
    Asker(Prompts* prompts, std::shared_ptr<std::atomic<bool>> stop)
        : m_prompts(prompts), m_stop(std::move(stop)) {}

    bool acceptUnknownHostKey(const std::string& target, const ssh::HostKey& key) override {
        return ask<bool>([=](Prompts* p) {
                   return p->acceptHostKey(QString::fromStdString(target),
                                           QString::fromStdString(key.type),
                                           QString::fromStdString(key.fingerprint));
               })
            .value_or(false);
    }
    std::optional<std::string> password(const std::string& target) override {
        const int attempt = m_attempts[target]++;
        return text(ask<std::optional<QString>>(
            [=](Prompts* p) { return p->loginPassword(QString::fromStdString(target), attempt); }));
    }
    // After a login: Prompts saves or forgets what it asked (on the UI thread).
    void loginDone(bool succeeded) {
        if (m_prompts)
            for (const auto& [target, n] : m_attempts) {
                Prompts* p = m_prompts;
                const auto t = QString::fromStdString(target);
                QMetaObject::invokeMethod(
                    p, [p, t, succeeded] { p->loginDone(t, succeeded); }, Qt::QueuedConnection);
            }
        m_attempts.clear();
    }
    std::optional<std::string> passphrase(const std::string& prompt) override {
        return text(ask<std::optional<QString>>(
            [=](Prompts* p) { return p->passphrase(QString::fromStdString(prompt)); }));
    }
    std::optional<std::vector<std::string>>
    keyboardInteractive(const std::string& name, const std::string& instruction,
                        const std::vector<Prompt>& prompts) override {
        QStringList texts;
        QList<bool> echo;
        for (const auto& p : prompts) {
            texts << QString::fromStdString(p.text);
            echo << p.echo;
        }
        const auto a = ask<std::optional<QStringList>>([=](Prompts* p) {
            return p->keyboardInteractive(QString::fromStdString(name),
                                          QString::fromStdString(instruction), texts, echo);
        });
        if (!a || !*a)
            return std::nullopt;
        std::vector<std::string> out;
        for (const auto& s : **a)
            out.push_back(s.toStdString());
        return out;
    }

private:
    static std::optional<std::string> text(const std::optional<std::optional<QString>>& a) {
        if (!a || !*a)
            return std::nullopt;
        return (*a)->toStdString();
    }

    // Runs `question` on the UI thread and waits for its answer in 100 ms slices, so a cancel
    // ends the wait; a question whose Prompts object is gone counts as declined.
    template <typename T> std::optional<T> ask(std::function<T(Prompts*)> question) {
        if (!m_prompts)
            return std::nullopt;
        auto promise = std::make_shared<std::promise<T>>();
        auto answer = promise->get_future();
        Prompts* p = m_prompts;
        QMetaObject::invokeMethod(
            p, [p, promise, question] { promise->set_value(question(p)); }, Qt::QueuedConnection);
        while (answer.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready)
            if (m_stop->load())
                return std::nullopt;
        try {
            return answer.get();
        } catch (const std::future_error&) {
            return std::nullopt;
        }
    }

    Prompts* m_prompts;
    std::shared_ptr<std::atomic<bool>> m_stop;
    std::map<std::string, int> m_attempts; // password questions per target in this login
};

// ---- Connection ----

Connection::Connection(quint64 id, Spec spec, Prompts* prompts, QObject* parent)
    : QObject(parent), m_id(id), m_spec(std::move(spec)), m_thread(new QThread(this)),
      m_stop(std::make_shared<std::atomic<bool>>(false)),
      m_tuneCancel(std::make_shared<std::atomic<bool>>(false)),
      m_asker(std::make_unique<Asker>(prompts, m_stop)), m_worker(new QObject) {
    qRegisterMetaType<SnapshotPtr>();
    qRegisterMetaType<ApplyReportPtr>();
    qRegisterMetaType<PersistReportPtr>();
    qRegisterMetaType<PendingAction>();
    qRegisterMetaType<RatesPtr>();
    qRegisterMetaType<TestEventsPtr>();
    qRegisterMetaType<RecordingPtr>();
    qRegisterMetaType<TuneResultPtr>();
    qRegisterMetaType<measure::TuneProgress>();
    if (m_spec.ssh)
        m_router = Router::remote(m_spec.target, *m_asker, m_spec.root.toStdString());
    else
        m_router = Router::local(m_spec.root.toStdString());
    m_thread->setObjectName(QStringLiteral("connection-%1").arg(id));
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

Connection::~Connection() {
    cancel();
    // The live timer belongs to the worker thread: it goes there, before the thread ends.
    QMetaObject::invokeMethod(
        m_worker, [this] { m_live.reset(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void Connection::startLive(int hz, SnapshotPtr snapshot) {
    const int ms = 1000 / std::clamp(hz, 1, 20);
    QMetaObject::invokeMethod(
        m_worker,
        [this, ms, snapshot] {
            if (!m_live)
                m_live = std::make_unique<Live>();
            auto& l = *m_live;
            if (m_spec.demo && !l.demo && snapshot) {
                std::string error;
                l.demo = DemoLoad::create(m_spec.root.toStdString(), *snapshot, &error);
                if (!l.demo)
                    Q_EMIT liveProblem(m_id, QString::fromStdString(error));
                l.clock.start();
            }
            if (!l.timer) {
                // Created here, so that it belongs to the worker thread.
                l.timer = std::make_unique<QTimer>();
                l.timer->setTimerType(Qt::PreciseTimer);
                QObject::connect(l.timer.get(), &QTimer::timeout, m_worker, [this] { liveTick(); });
            }
            l.timer->start(ms);
        },
        Qt::QueuedConnection);
}

void Connection::stopLive() {
    QMetaObject::invokeMethod(
        m_worker,
        [this] {
            if (m_live && m_live->timer)
                m_live->timer->stop();
        },
        Qt::QueuedConnection);
}

// One tick on the worker thread: the demo's model moves on, the router is read, a bufferbloat
// test takes the tick, and the rates since the last tick go to the window.
void Connection::liveTick() {
    auto& l = *m_live;
    if (m_stop->load())
        return;
    if (l.problem && l.sinceProblem.isValid() && l.sinceProblem.elapsed() < 2000) {
        testTick(false, false); // no channel or process churn on a router that cannot be
        return;                 // sampled now; the test's probes and phases go on
    }
    std::string error;
    if (l.demo) {
        const double dt = static_cast<double>(l.clock.restart()) / 1000.0;
        if (!l.demo->step(std::min(dt, 2.0), &error)) {
            Q_EMIT liveProblem(m_id, QString::fromStdString(error));
            return;
        }
    }
    if (!l.source) {
        if (!m_router->open(&error)) {
            if (!l.problem)
                Q_EMIT liveProblem(m_id, QString::fromStdString(error));
            l.problem = true;
            l.sinceProblem.start();
            testTick(false, true);
            return;
        }
        l.source = m_router->isRemote()
                       ? sshSampleSource(*m_router->session(), m_spec.root.toStdString())
                       : localSampleSource(m_spec.root.toStdString());
    }
    auto s = l.source->next(&error);
    if (!s) {
        if (!l.problem)
            Q_EMIT liveProblem(m_id, QString::fromStdString(error));
        l.problem = true;
        l.sinceProblem.start();
        if (m_router->isRemote() && !m_router->session()->isConnected())
            l.source.reset(); // reconnect at the next tick (the router may be rebooting)
        l.last.reset();       // a gap in the history, not a rate across it
        testTick(false, true);
        return;
    }
    l.problem = false;
    testTick(true, false);
    if (l.last)
        if (auto r = computeRates(*l.last, *s, l.lastRates.get())) {
            l.lastRates = std::make_shared<const Rates>(std::move(*r));
            Q_EMIT live(m_id, l.lastRates);
        }
    l.last = std::move(s);
}

void Connection::cancel() {
    m_stop->store(true);
    m_tuneCancel->store(true);
    m_router->requestStop();
}

template <typename Fn> void Connection::post(const QString& what, Fn&& fn) {
    ++m_busy;
    QMetaObject::invokeMethod(
        m_worker,
        [this, what, fn = std::forward<Fn>(fn)]() mutable {
            std::string error;
            if (m_stop->load()) {
                Q_EMIT failed(m_id, what, tr("Stopped."), false);
            } else {
                const bool connecting = m_spec.ssh && !m_router->session()->isConnected();
                if (connecting)
                    Q_EMIT progress(
                        m_id,
                        tr("Connecting to %1 ...").arg(QString::fromStdString(m_router->where())));
                const bool opened = m_router->open(&error);
                if (connecting)
                    m_asker->loginDone(opened);
                if (!opened) {
                    const bool changed = m_spec.ssh && m_router->session()->error().kind ==
                                                           ssh::ErrorKind::HostKeyChanged;
                    Q_EMIT failed(m_id, QStringLiteral("connect"), QString::fromStdString(error),
                                  changed);
                } else {
                    if (connecting)
                        Q_EMIT reached(m_id,
                                       QString::fromStdString(m_router->session()->resolvedHost()),
                                       m_router->session()->resolvedPort());
                    fn();
                }
            }
            QMetaObject::invokeMethod(
                this,
                [this] {
                    if (--m_busy == 0)
                        Q_EMIT idle(m_id);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

// The tuner runs as any request does, once the router is open (connection_tune.cpp).
void Connection::startTune(TuneRequest request) {
    m_tuneCancel->store(false);
    post(QStringLiteral("tune"),
         [this, request = std::move(request)]() mutable { runTuneHere(std::move(request)); });
}

void Connection::refresh() {
    post(QStringLiteral("read"), [this] {
        Q_EMIT progress(m_id, tr("Reading %1 ...").arg(m_spec.label));
        std::string error;
        const auto bundle = m_router->collect(&error);
        if (!bundle) {
            Q_EMIT failed(m_id, QStringLiteral("read"), QString::fromStdString(error), false);
            return;
        }
        auto snap = std::make_shared<Snapshot>(buildSnapshot(*bundle));
        snap->source = std::make_shared<const FileBundle>(std::move(*bundle));
        Q_EMIT snapshotReady(m_id, std::move(snap));
    });
}

void Connection::apply(ApplyScript script, std::vector<Write> writes) {
    post(QStringLiteral("apply"), [this, script = std::move(script), writes = std::move(writes)] {
        Q_EMIT progress(m_id, tr("Applying on %1 ...").arg(m_spec.label));
        std::string error;
        auto rep = m_router->apply(script, writes, &error);
        if (!rep) {
            Q_EMIT failed(m_id, QStringLiteral("apply"), QString::fromStdString(error), false);
            return;
        }
        Q_EMIT applied(m_id, std::make_shared<const ApplyReport>(std::move(*rep)));
    });
}

void Connection::settle(PendingAction action) {
    const auto what =
        action == PendingAction::Confirm ? QStringLiteral("confirm") : QStringLiteral("revert");
    post(what, [this, action, what] {
        std::string error;
        if (m_router->settle(action, &error))
            Q_EMIT settled(m_id, action);
        else
            Q_EMIT failed(m_id, what, QString::fromStdString(error), false);
    });
}

void Connection::persist(PersistScript script) {
    post(QStringLiteral("persist"), [this, script = std::move(script)] {
        Q_EMIT progress(m_id, tr("Writing the persistent files on %1 ...").arg(m_spec.label));
        std::string error;
        auto rep = m_router->persist(script, &error);
        if (!rep) {
            Q_EMIT failed(m_id, QStringLiteral("persist"), QString::fromStdString(error), false);
            return;
        }
        Q_EMIT persisted(m_id, std::make_shared<const PersistReport>(std::move(*rep)));
    });
}

} // namespace coresteer::ui
