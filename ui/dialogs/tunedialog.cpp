// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/tunedialog.h"

#include "ui/dialogs/tuneview.h"
#include "ui/live/bufferbloattest.h"
#include "ui/live/liveexport.h"

#include "core/layout/layout_json.h"
#include "core/measure/tune_conflicts.h"
#include "core/measure/tune_json.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace coresteer::ui {

using namespace coresteer::measure;
using live::LoadSpec;

namespace {

QString sourceName(Candidate::Source s) {
    switch (s) {
    case Candidate::Source::Current:
        return TuneDialog::tr("the router now");
    case Candidate::Source::Plan:
        return TuneDialog::tr("the planner");
    case Candidate::Source::Alternative:
        return TuneDialog::tr("the planner's alternative");
    case Candidate::Source::Preset:
        return TuneDialog::tr("a preset");
    case Candidate::Source::File:
        return TuneDialog::tr("a file");
    case Candidate::Source::Edit:
        return TuneDialog::tr("your edits");
    }
    return {};
}

QString duration(double seconds) {
    const int s = static_cast<int>(std::max(0.0, seconds) + 0.5);
    return s >= 60 ? TuneDialog::tr("%1 min %2 s").arg(s / 60).arg(s % 60)
                   : TuneDialog::tr("%1 s").arg(s);
}

QSpinBox* spin(int lo, int hi, int value, const QString& suffix) {
    auto* b = new QSpinBox;
    b->setRange(lo, hi);
    b->setValue(value);
    b->setSuffix(suffix);
    return b;
}

} // namespace

TuneDialog::TuneDialog(const QString& router, SnapshotPtr snapshot,
                       std::vector<Candidate> candidates, const QStringList& notes,
                       const QStringList& loadTargets, bool modelled, QWidget* parent)
    : QDialog(parent), m_snap(std::move(snapshot)), m_modelled(modelled),
      m_pages(new QStackedWidget), m_list(new QTreeWidget), m_detail(new QLabel),
      m_load(new QComboBox), m_streams(spin(1, 32, 4, tr(" streams"))),
      m_download(new QCheckBox(tr("Download"))), m_upload(new QCheckBox(tr("Upload"))),
      m_both(new QCheckBox(tr("Both ways"))), m_phaseSeconds(spin(1, 3600, 5, tr(" s"))),
      m_idleSeconds(spin(1, 60, 2, tr(" s"))), m_margin(spin(0, 50, 3, tr(" %"))),
      m_plan(new QLabel),
      m_allowConflicts(new QCheckBox(tr("Tune anyway, while irqbalance moves IRQs"))),
      m_budget(spin(10, 7 * 86400, 1800, tr(" s"))), m_objective(new QComboBox),
      m_problem(new QLabel), m_progress(new QLabel), m_bar(new QProgressBar), m_notes(new QLabel),
      m_verdict(new QLabel), m_table(new TuneTable), m_plot(new TunePlot),
      m_start(new QPushButton(tr("&Start"))), m_cancel(new QPushButton(tr("Cancel the run"))),
      m_applyWinner(new QPushButton(tr("&Apply the winner..."))),
      m_save(new QPushButton(tr("&Save recording..."))), m_close(new QPushButton(tr("Close"))) {
    setWindowTitle(tr("Find the best layout for %1").arg(router));
    resize(1280, 800);
    m_pages->addWidget(buildSetup(notes, loadTargets));
    m_pages->addWidget(buildRun());
    for (const auto& c : candidates)
        addCandidate(c, true);
    connect(m_start, &QPushButton::clicked, this, &TuneDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_stage == Stage::Running) {
            setStage(Stage::Cancelling);
            Q_EMIT cancelRequested();
        }
    });
    connect(m_applyWinner, &QPushButton::clicked, this, [this] {
        if (m_result && m_result->verdict.winner) {
            const auto& w =
                m_result->candidates[static_cast<std::size_t>(*m_result->verdict.winner)];
            Q_EMIT applyWinnerRequested(w.layout, QString::fromStdString(w.name));
        }
    });
    connect(m_save, &QPushButton::clicked, this, &TuneDialog::saveAs);
    connect(m_close, &QPushButton::clicked, this, &TuneDialog::reject);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_applyWinner);
    buttons->addWidget(m_save);
    buttons->addStretch(1);
    buttons->addWidget(m_close);
    auto* box = new QVBoxLayout(this);
    box->addWidget(m_pages, 1);
    box->addLayout(buttons);
    setStage(Stage::Setup);
    m_plan->setText(planText().toHtmlEscaped());
}

QWidget* TuneDialog::buildSetup(const QStringList& notes, const QStringList& loadTargets) {
    auto* page = new QWidget;
    auto* box = new QVBoxLayout(page);
    auto* intro = new QLabel(
        tr("Each checked layout is tried on the router under load, in blocks: every candidate "
           "once a block, in an order of its own, and the current layout twice, against which "
           "each is compared. A layout wins only when it beats the current one by the smallest "
           "gain worth a change, at 95 % confidence over every candidate and every look. A "
           "candidate is applied with the automatic revert armed and reverted after its trial; "
           "the router is on its current layout at the end, or cancelled."));
    intro->setWordWrap(true);
    box->addWidget(intro);
    m_list->setColumnCount(4);
    m_list->setHeaderLabels(
        {tr("Candidate"), tr("From"), tr("What it changes"), tr("Why it may win")});
    m_list->setRootIsDecorated(false);
    m_list->setWordWrap(true);
    m_list->header()->setStretchLastSection(true);
    m_list->setColumnWidth(0, 220);
    m_list->setColumnWidth(1, 140);
    m_list->setColumnWidth(2, 320);
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        const int i = item ? m_list->indexOfTopLevelItem(item) : -1;
        if (i < 0 || static_cast<std::size_t>(i) >= m_candidates.size())
            return m_detail->clear();
        const auto& c = m_candidates[static_cast<std::size_t>(i)];
        m_detail->setText(tr("<b>%1</b>: %2<br>Changes: %3")
                              .arg(QString::fromStdString(c.name).toHtmlEscaped(),
                                   QString::fromStdString(c.why).toHtmlEscaped(),
                                   QString::fromStdString(c.changes).toHtmlEscaped()));
    });
    box->addWidget(m_list, 1);
    m_detail->setWordWrap(true);
    box->addWidget(m_detail);
    auto* row = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add from &file..."));
    add->setToolTip(tr("A layout or a preset file (coresteer.layout or coresteer.preset)"));
    connect(add, &QPushButton::clicked, this, &TuneDialog::chooseFile);
    row->addWidget(add);
    auto* left = new QLabel(notes.join(QStringLiteral("<br>")).isEmpty()
                                ? QString()
                                : tr("<small>Left out: %1</small>")
                                      .arg(notes.join(QStringLiteral("; ")).toHtmlEscaped()));
    left->setWordWrap(true);
    row->addWidget(left, 1);
    box->addLayout(row);

    auto* form = new QFormLayout;
    m_load->setEditable(true);
    m_load->setInsertPolicy(QComboBox::NoInsert);
    m_load->addItems(loadTargets);
    m_load->setEditText(m_modelled ? QString() : loadTargets.value(0));
    m_load->lineEdit()->setPlaceholderText(
        m_modelled ? tr("None: the demo's model is the load")
                   : tr("iperf3://HOST[:PORT], or URLs to download [POST a URL for uploads]"));
    m_load->setToolTip(
        tr("The load beyond the router, as the Live tab's test takes it: an iperf3 server "
           "(iperf3://HOST[:PORT] or HOST[:PORT]), or the URLs of large files to download and, "
           "for uploads, the word POST and a URL that takes them."));
    auto* load = new QHBoxLayout;
    load->addWidget(m_load, 1);
    load->addWidget(m_streams);
    form->addRow(tr("Load:"), load);
    m_download->setChecked(true);
    m_upload->setChecked(true);
    auto* phases = new QHBoxLayout;
    phases->addWidget(m_download);
    phases->addWidget(m_upload);
    phases->addWidget(m_both);
    phases->addStretch(1);
    form->addRow(tr("Phases of each trial:"), phases);
    form->addRow(tr("Each phase:"), m_phaseSeconds);
    m_idleSeconds->setToolTip(tr("Idle after the candidate is applied: the latency's baseline"));
    form->addRow(tr("Idle before the load:"), m_idleSeconds);
    m_margin->setToolTip(
        tr("The smallest gain worth a change, in percent of the current layout's: a winner's "
           "gain must clear it at the lower end of its 95 % interval, and what must not get "
           "worse may lose at most this much (latency at most 5 ms)"));
    form->addRow(tr("Smallest gain worth a change:"), m_margin);
    m_budget->setSingleStep(60);
    form->addRow(tr("Time budget:"), m_budget);
    m_objective->addItem(tr("Throughput (latency must not get worse)"),
                         static_cast<int>(Objective::Throughput));
    m_objective->addItem(tr("Latency (throughput must not get worse)"),
                         static_cast<int>(Objective::Latency));
    m_objective->addItem(tr("Headroom: the busiest core's load (throughput and latency must not "
                            "get worse)"),
                         static_cast<int>(Objective::Headroom));
    form->addRow(tr("Objective:"), m_objective);
    m_plan->setWordWrap(true);
    form->addRow(tr("The plan:"), m_plan);
    // What else moves masks on the router: said; irqbalance running holds Start back unless
    // the box says to tune anyway.
    QStringList conflicts;
    for (const auto& c : tuneConflicts(*m_snap)) {
        conflicts << tr("<b>%1</b>: %2 %3")
                         .arg(QString::fromStdString(c.title).toHtmlEscaped(),
                              QString::fromStdString(c.effect).toHtmlEscaped(),
                              QString::fromStdString(c.remedy).toHtmlEscaped());
        m_refusingConflict = m_refusingConflict || c.refuses;
    }
    if (!conflicts.isEmpty()) {
        auto* said = new QLabel(conflicts.join(QStringLiteral("<br>")));
        said->setWordWrap(true);
        form->addRow(tr("On the router:"), said);
    }
    m_allowConflicts->setVisible(m_refusingConflict);
    form->addRow(QString(), m_allowConflicts);
    box->addLayout(form);
    const auto update = [this] { m_plan->setText(planText().toHtmlEscaped()); };
    for (auto* sp : {m_phaseSeconds, m_idleSeconds, m_budget})
        connect(sp, &QSpinBox::valueChanged, this, update);
    for (auto* cb : {m_download, m_upload, m_both})
        connect(cb, &QCheckBox::toggled, this, update);
    connect(m_list, &QTreeWidget::itemChanged, this, update);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #c62828"));
    box->addWidget(m_problem);
    return page;
}

QWidget* TuneDialog::buildRun() {
    auto* page = new QWidget;
    auto* box = new QVBoxLayout(page);
    m_progress->setWordWrap(true);
    box->addWidget(m_progress);
    box->addWidget(m_bar);
    m_notes->setWordWrap(true);
    box->addWidget(m_notes);
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    box->addWidget(m_verdict);
    m_split = new QSplitter(Qt::Vertical);
    m_split->addWidget(m_table);
    m_split->addWidget(m_plot);
    m_split->setStretchFactor(0, 1);
    m_split->setStretchFactor(1, 3);
    box->addWidget(m_split, 1);
    return page;
}

void TuneDialog::addCandidate(const Candidate& c, bool checked) {
    const bool baseline = m_candidates.empty();
    m_candidates.push_back(c);
    auto* item =
        new QTreeWidgetItem({QString::fromStdString(c.name), sourceName(c.source),
                             QString::fromStdString(c.changes), QString::fromStdString(c.why)});
    for (int col = 0; col < 4; ++col)
        item->setToolTip(col, item->text(col));
    item->setFlags(baseline ? Qt::ItemIsEnabled | Qt::ItemIsSelectable
                            : Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    item->setCheckState(0, checked || baseline ? Qt::Checked : Qt::Unchecked);
    m_list->addTopLevelItem(item);
}

void TuneDialog::checkOnly(const std::vector<int>& rows) {
    for (int i = 1; i < m_list->topLevelItemCount(); ++i)
        m_list->topLevelItem(i)->setCheckState(
            0, std::find(rows.begin(), rows.end(), i) != rows.end() ? Qt::Checked : Qt::Unchecked);
}

bool TuneDialog::addCandidateFile(const QString& file, QString* error) {
    if (m_candidates.size() >= kMaxCandidates) {
        *error = tr("At most %1 candidates, the current layout among them.").arg(kMaxCandidates);
        return false;
    }
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly) || f.size() > (1 << 20)) {
        *error = tr("%1: cannot read the file (or it is over 1 MiB)").arg(file);
        return false;
    }
    const auto text = f.readAll().toStdString();
    std::string why;
    Candidate c;
    c.source = Candidate::Source::File;
    if (text.find("coresteer.preset") != std::string::npos) {
        const auto p = layout::parsePreset(text, &why);
        if (!p) {
            *error = tr("%1: %2").arg(file, QString::fromStdString(why));
            return false;
        }
        c.name = p->name;
        c.why = p->note;
        c.layout = p->layout;
    } else {
        const auto l = layout::parseLayout(text, &why);
        if (!l) {
            *error = tr("%1: %2").arg(file, QString::fromStdString(why));
            return false;
        }
        c.name = QFileInfo(file).fileName().toStdString();
        c.why = "From " + file.toStdString() + ".";
        c.layout = *l;
    }
    if (const auto left = whyLeftOut(c, m_candidates, *m_snap, true)) {
        *error = tr("%1: left out, %2").arg(file, QString::fromStdString(*left));
        return false;
    }
    c.changes = describeChanges(c.layout, *m_snap);
    // Added; what of it does not apply here is said where a problem is.
    *error = QString::fromStdString(notOnThisRouter(c, *m_snap));
    addCandidate(c, true);
    return true;
}

void TuneDialog::chooseFile() {
    const auto file = QFileDialog::getOpenFileName(this, tr("A layout or preset to try"), {},
                                                   tr("Layouts and presets (*.json)"));
    if (file.isEmpty())
        return;
    QString error;
    addCandidateFile(file, &error);
    m_problem->setText(error.toHtmlEscaped());
}

std::optional<TuneRequest> TuneDialog::request(QString* error) const {
    TuneRequest r;
    r.snapshot = m_snap;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        if (m_list->topLevelItem(i)->checkState(0) == Qt::Checked)
            r.candidates.push_back(m_candidates[static_cast<std::size_t>(i)]);
    if (r.candidates.size() < 2) {
        *error = tr("Check at least one candidate besides the current layout.");
        return std::nullopt;
    }
    if (m_refusingConflict && !m_allowConflicts->isChecked()) {
        *error = tr("irqbalance runs on the router and would move IRQs under the trials: stop "
                    "it for the tune, or check \"Tune anyway\".");
        return std::nullopt;
    }
    auto& spec = r.spec;
    for (const auto& [box, d] : {std::pair{m_download, LoadSpec::Direction::Download},
                                 std::pair{m_upload, LoadSpec::Direction::Upload},
                                 std::pair{m_both, LoadSpec::Direction::Both}})
        if (box->isChecked())
            spec.test.phases.push_back(d);
    if (spec.test.phases.empty()) {
        *error = tr("Check at least one phase: download, upload or both.");
        return std::nullopt;
    }
    auto target = m_load->currentText().trimmed();
    if (target.startsWith(QLatin1String("iperf3://")))
        target = target.mid(9);
    if (!target.isEmpty()) {
        LoadSpec load;
        std::string why;
        if (!live::parseLoadTarget(target.toStdString(), load, &why)) {
            *error = QString::fromStdString(why);
            return std::nullopt;
        }
        for (auto d : spec.test.phases)
            if (!load.canRun(d)) {
                *error =
                    tr("An upload needs a URL that takes it, after the word POST: %1").arg(target);
                return std::nullopt;
            }
        if (!load.isHttp() && !BufferbloatTest::loadGeneratorAvailable()) {
            *error = tr("iperf3 is not installed here: install it, or load over HTTP(S) with a "
                        "URL");
            return std::nullopt;
        }
        load.streams = m_streams->value();
        load.phaseSeconds = m_phaseSeconds->value();
        load.direction =
            spec.test.phases.size() > 1 ? LoadSpec::Direction::Sequence : spec.test.phases.front();
        spec.test.load = load;
    } else if (!m_modelled) {
        *error = tr("Name a load beyond the router: an iperf3 server or URLs to download.");
        return std::nullopt;
    }
    spec.test.phaseSeconds = m_phaseSeconds->value();
    spec.idleSeconds = m_idleSeconds->value();
    spec.marginPct = m_margin->value();
    spec.budgetSeconds = m_budget->value();
    spec.objective = static_cast<Objective>(m_objective->currentData().toInt());
    spec.rate = 10;
    return r;
}

bool TuneDialog::start() {
    if (m_stage == Stage::Running || m_stage == Stage::Cancelling)
        return false;
    QString error;
    auto r = request(&error);
    if (!r) {
        m_problem->setText(error.toHtmlEscaped());
        return false;
    }
    m_problem->clear();
    m_running = r->candidates;
    m_spec = r->spec;
    m_trialsStarted = 0;
    m_result.reset();
    m_recording.reset();
    m_doc = nlohmann::json();
    m_table->setTune(m_doc);
    m_plot->setTune(m_doc);
    m_notes->clear();
    m_verdict->clear();
    const auto plan = estimateTune(m_spec, static_cast<int>(m_running.size()));
    if (!plan.fits) {
        m_problem->setText(
            tr("The plan needs %1").arg(QString::fromStdString(plan.text)).toHtmlEscaped());
        return false;
    }
    m_bar->setRange(0, plan.plan.most() * plan.trialsPerBlock);
    m_bar->setValue(0);
    m_progress->setText(tr("Starting: %1 candidates; %2")
                            .arg(m_running.size())
                            .arg(QString::fromStdString(plan.text).toHtmlEscaped()));
    setStage(Stage::Running);
    if (const auto target = m_load->currentText().trimmed(); !target.isEmpty())
        Q_EMIT loadTargetUsed(target.startsWith(QLatin1String("iperf3://")) ? target.mid(9)
                                                                            : target);
    Q_EMIT startRequested(*r);
    return true;
}

QString TuneDialog::planText() const {
    QString error;
    const auto r = request(&error);
    if (!r)
        return error;
    return QString::fromStdString(
        estimateTune(r->spec, static_cast<int>(r->candidates.size())).text);
}

QString TuneDialog::candidateName(int index) const {
    if (index < 0 || static_cast<std::size_t>(index) >= m_running.size())
        return {};
    return QString::fromStdString(m_running[static_cast<std::size_t>(index)].name);
}

QString TuneDialog::progressText() const {
    return m_progress->text();
}

QString TuneDialog::verdictText() const {
    return m_verdict->text();
}

void TuneDialog::onProgress(const TuneProgress& p) {
    if (!p.message.empty()) {
        const auto line = QString::fromStdString(p.message).toHtmlEscaped();
        m_notes->setText(
            m_notes->text().isEmpty() ? line : m_notes->text() + QStringLiteral("<br>") + line);
        return;
    }
    const int per = std::max(1, p.trialsPerBlock);
    const int done = p.block * per + p.trial;
    m_bar->setMaximum(std::max(m_bar->maximum(), p.blocks * per));
    m_bar->setValue(done);
    // What is left of the plan at a trial's length, within the budget.
    const double estimate =
        std::max(0, std::max(p.blocks, p.block + 1) * per - done) * trialSeconds(m_spec);
    m_progress->setText(tr("Block %1 of at most %2, trial %3 of %4: <b>%5</b>. At most %6 left "
                           "(%7 of the budget).")
                            .arg(p.block + 1)
                            .arg(p.blocks)
                            .arg(p.trial + 1)
                            .arg(per)
                            .arg(QString::fromStdString(p.name).toHtmlEscaped(),
                                 duration(std::min(estimate, p.left)), duration(p.left)));
}

void TuneDialog::onTrial(double, int, int candidate) {
    if (candidate >= 0)
        ++m_trialsStarted;
}

void TuneDialog::onFinished(TuneResultPtr result, RecordingPtr recording, const QString& problem) {
    if (!result) {
        onFailed(problem);
        return;
    }
    m_result = std::move(result);
    m_recording = std::move(recording);
    m_doc = tuneJson(*m_result, m_spec.objective);
    m_table->setTune(m_doc);
    m_plot->setTune(m_doc);
    // The table as tall as its rows (up to about ten), the plot below it the rest.
    m_table->setMinimumHeight(std::min(m_table->fittingHeight(), 320));
    const int rows = m_table->minimumHeight();
    m_split->setSizes({rows, std::max(0, m_split->height() - rows)});
    const auto& v = m_result->verdict;
    QString text = tr("<b>%1</b><br>%2 %3")
                       .arg(QString::fromStdString(v.text).toHtmlEscaped(),
                            v.decided ? tr("Decided.") : tr("Not decided: no winner is named."),
                            QString::fromStdString(m_result->stopText).toHtmlEscaped());
    if (!m_result->readBack.empty())
        text += QStringLiteral("<br>") + QString::fromStdString(m_result->readBack).toHtmlEscaped();
    if (!m_result->baselineRestored)
        text += tr("<br><b>The router is to restore its current layout by itself within %1 s "
                   "(its revert timer).</b>")
                    .arg(m_result->revertWithin);
    if (!problem.isEmpty())
        text += QStringLiteral("<br>") + problem.toHtmlEscaped();
    m_verdict->setText(text);
    m_progress->setText(
        tr("%1 blocks in %2.").arg(m_result->blocks).arg(duration(m_result->seconds)));
    m_bar->setValue(m_bar->maximum());
    setStage(Stage::Done);
}

void TuneDialog::onFailed(const QString& message) {
    if (m_stage != Stage::Running && m_stage != Stage::Cancelling)
        return;
    m_problem->setText(message.toHtmlEscaped());
    setStage(Stage::Failed);
}

bool TuneDialog::saveRecording(const QString& file, QString* error) const {
    if (!m_recording) {
        *error = tr("Nothing has been recorded.");
        return false;
    }
    return LiveExport::saveRecording(*m_recording, file, error);
}

void TuneDialog::saveAs() {
    const auto file = QFileDialog::getSaveFileName(this, tr("Save the tune's recording"), {},
                                                   tr("Recordings (*.csrec)"));
    if (file.isEmpty())
        return;
    QString error;
    if (!saveRecording(file, &error))
        m_notes->setText(error.toHtmlEscaped());
}

void TuneDialog::setStage(Stage s) {
    m_stage = s;
    const bool setup = s == Stage::Setup || s == Stage::Failed;
    m_pages->setCurrentIndex(setup ? 0 : 1);
    m_start->setVisible(setup || s == Stage::Done);
    m_start->setText(s == Stage::Done ? tr("&Set up again") : tr("&Start"));
    m_cancel->setVisible(s == Stage::Running || s == Stage::Cancelling);
    m_cancel->setEnabled(s == Stage::Running);
    m_cancel->setText(s == Stage::Cancelling ? tr("Cancelling: putting the current layout back ...")
                                             : tr("Cancel the run"));
    m_applyWinner->setVisible(s == Stage::Done);
    m_applyWinner->setEnabled(s == Stage::Done && m_result && m_result->verdict.winner);
    m_save->setVisible(s == Stage::Done);
    m_save->setEnabled(m_recording != nullptr);
    m_close->setEnabled(s != Stage::Running && s != Stage::Cancelling);
    if (s == Stage::Done) {
        // "Set up again" goes back to the setup, as it was.
        disconnect(m_start, &QPushButton::clicked, this, nullptr);
        connect(m_start, &QPushButton::clicked, this, [this] { setStage(Stage::Setup); });
    } else if (setup) {
        disconnect(m_start, &QPushButton::clicked, this, nullptr);
        connect(m_start, &QPushButton::clicked, this, &TuneDialog::start);
    }
}

void TuneDialog::reject() {
    if (m_stage == Stage::Running) {
        // Closing while it runs cancels it; the dialog stays until the baseline is back.
        setStage(Stage::Cancelling);
        Q_EMIT cancelRequested();
        return;
    }
    if (m_stage == Stage::Cancelling)
        return;
    QDialog::reject();
}

} // namespace coresteer::ui
