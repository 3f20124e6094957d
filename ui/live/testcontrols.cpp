// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/testcontrols.h"

#include "ui/base/testtargets.h"
#include "ui/live/bufferbloattest.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace coresteer::ui {

using namespace coresteer::live;

namespace {

// A row of buttons, added to later (setViewActions, setRecordingActions).
QWidget* buttonRow(const QString& name) {
    auto* row = new QWidget;
    row->setObjectName(name);
    auto* box = new QHBoxLayout(row);
    box->setContentsMargins(0, 0, 0, 0);
    return row;
}

// A text button for each action, in `row`'s horizontal layout.
void addButtons(QWidget* row, const QList<QAction*>& actions) {
    auto* box = static_cast<QHBoxLayout*>(row->layout());
    for (auto* a : actions) {
        auto* b = new QToolButton;
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        box->addWidget(b);
    }
}

} // namespace

TestControls::TestControls(QWidget* chart, QWidget* parent)
    : QWidget(parent), m_loadMode(new QComboBox), m_loadServer(new QComboBox),
      m_loadStreams(new QSpinBox), m_probeHosts(new QLineEdit),
      m_testButton(new QPushButton(tr("Start recording"))),
      m_viewButtons(buttonRow(QStringLiteral("viewButtons"))), m_result(new QLabel),
      m_recordingButtons(buttonRow(QStringLiteral("recordingButtons"))) {
    m_testButton->setCheckable(true);
    m_testButton->setEnabled(false);
    connect(m_testButton, &QPushButton::toggled, this, &TestControls::testToggled);
    m_result->setWordWrap(true);
    // The optional load generator, under the record button's control.
    m_loadMode->addItem(tr("None (run your own test)"));
    m_loadMode->addItem(tr("Download"), static_cast<int>(LoadSpec::Direction::Download));
    m_loadMode->addItem(tr("Upload"), static_cast<int>(LoadSpec::Direction::Upload));
    m_loadMode->addItem(tr("Both ways"), static_cast<int>(LoadSpec::Direction::Both));
    m_loadMode->addItem(tr("Download, upload, both (10 s each)"),
                        static_cast<int>(LoadSpec::Direction::Sequence));
    m_loadServer->setEditable(true);
    m_loadServer->setInsertPolicy(QComboBox::NoInsert);
    m_loadServer->setObjectName(QStringLiteral("loadServer"));
    m_loadServer->lineEdit()->setPlaceholderText(
        tr("iperf3 server host[:port], or URLs to download [POST a URL for uploads]"));
    m_loadServer->setToolTip(
        tr("Where the load goes, beyond the router: an iperf3 server (host[:port]), or HTTP(S) "
           "as the web's tests load: the URLs of large files to download (the streams take them in "
           "turn), and for uploads the word POST and a URL that takes them. Certificates are "
           "checked. The targets "
           "used before and those in Edit > Preferences are offered."));
    m_loadStreams->setRange(1, 32);
    m_loadStreams->setValue(4);
    m_loadStreams->setSuffix(tr(" streams"));
    // Latency where the queue is: hosts past the WAN, contacted only while a test runs.
    m_probeHosts->setObjectName(QStringLiteral("probeHosts"));
    m_probeHosts->setPlaceholderText(tr("Latency beyond the router: hosts past the WAN"));
    m_probeHosts->setToolTip(
        tr("Hosts past the router's WAN (your ISP's gateway, a DNS server, the load server) to "
           "probe with ICMP echo from this machine during a test, separated by spaces; "
           "irtt://HOST[:PORT] names an irtt server, probed by irtt for the round trip and each "
           "way's delay. The router's own address measures only its responsiveness. Nothing is "
           "contacted until a test starts."));
    connect(m_probeHosts, &QLineEdit::editingFinished, this,
            [this] { Q_EMIT beyondHostsEdited(beyondHosts()); });

    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    auto* load = new QHBoxLayout;
    load->addWidget(m_loadMode);
    load->addWidget(m_loadServer, 1);
    load->addWidget(m_loadStreams);
    box->addLayout(load);
    box->addWidget(m_probeHosts);
    auto* testRow = new QHBoxLayout;
    testRow->addWidget(m_testButton, 1);
    testRow->addWidget(m_viewButtons);
    box->addLayout(testRow);
    box->addWidget(m_result);
    box->addWidget(m_recordingButtons);
    box->addWidget(chart, 1);
}

void TestControls::showRunning(bool running) {
    if (m_testButton->isChecked() != running) {
        const QSignalBlocker b(m_testButton);
        m_testButton->setChecked(running);
    }
    m_testButton->setText(running ? tr("Stop recording") : tr("Start recording"));
    if (m_stopping) {
        m_stopping = false;
        m_testButton->setEnabled(true);
    }
}

void TestControls::showStopping() {
    m_stopping = true;
    m_testButton->setText(tr("Stopping ..."));
    m_testButton->setEnabled(false);
}

std::optional<LoadSpec> TestControls::chosenLoad(int phaseSeconds, QString* problem) const {
    if (m_loadMode->currentIndex() <= 0)
        return std::nullopt;
    LoadSpec spec;
    std::string error;
    const auto server = loadText();
    spec.direction = static_cast<LoadSpec::Direction>(m_loadMode->currentData().toInt());
    if (!parseLoadTarget(server.toStdString(), spec, &error)) {
        *problem = QString::fromStdString(error);
    } else if (!spec.canRun(spec.direction)) {
        *problem = tr("An upload needs a URL that takes it, after the word POST: %1").arg(server);
    } else if (!spec.isHttp() && !BufferbloatTest::loadGeneratorAvailable()) {
        *problem = tr("iperf3 is not installed here: install it, or load over HTTP(S) with a URL");
    } else {
        spec.streams = m_loadStreams->value();
        spec.phaseSeconds = phaseSeconds;
        return spec;
    }
    return std::nullopt;
}

void TestControls::showLoad(const std::optional<LoadSpec>& spec) {
    if (!spec) {
        m_loadMode->setCurrentIndex(0);
        return;
    }
    m_loadMode->setCurrentIndex(m_loadMode->findData(static_cast<int>(spec->direction)));
    m_loadServer->setEditText(QString::fromStdString(loadTargetText(*spec)));
    m_loadStreams->setValue(spec->streams);
}

QString TestControls::loadText() const {
    return m_loadServer->currentText().trimmed();
}

void TestControls::setLoadText(const QString& text) {
    m_loadServer->setEditText(text);
}

void TestControls::setLoadTargets(const QStringList& targets) {
    const auto text = m_loadServer->currentText();
    const QSignalBlocker b(m_loadServer);
    m_loadServer->clear();
    m_loadServer->addItems(targets);
    m_loadServer->setEditText(text);
}

QStringList TestControls::loadTargets() const {
    QStringList out;
    for (int i = 0; i < m_loadServer->count(); ++i)
        out << m_loadServer->itemText(i);
    return out;
}

QStringList TestControls::beyondHosts() const {
    return m_probeHosts->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

void TestControls::setBeyondHosts(const QStringList& hosts) {
    m_probeHosts->setText(hosts.join(QLatin1Char(' ')));
}

QStringList TestControls::usableBeyondHosts(QString* problem) const {
    const auto hosts = beyondHosts();
    const auto usable = plainHosts(hosts);
    for (const auto& h : hosts)
        if (!usable.contains(h))
            *problem += (problem->isEmpty() ? QString() : QStringLiteral("; ")) +
                        tr("not a host name or address: %1").arg(h);
    return usable;
}

void TestControls::setResult(const QString& html) {
    m_result->setText(html);
}

QString TestControls::result() const {
    return m_result->text();
}

void TestControls::addProblem(const QString& html) {
    m_result->setText(
        m_result->text().isEmpty() ? html : m_result->text() + QStringLiteral("<br>") + html);
}

void TestControls::setViewActions(const QList<QAction*>& actions) {
    addButtons(m_viewButtons, actions);
}

void TestControls::setRecordingActions(const QList<QAction*>& actions) {
    addButtons(m_recordingButtons, actions);
    static_cast<QHBoxLayout*>(m_recordingButtons->layout())->addStretch(1);
}

} // namespace coresteer::ui
