#include "ui/mainwindow.h"

#include "core/conflicts.h"
#include "core/layout/layout_json.h"
#include "core/layout/planner.h"
#include "ui/coremodel.h"
#include "ui/maskgridmodel.h"
#include "ui/maskgridview.h"
#include "ui/snapshotmodel.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace coresteer::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_loader(new SnapshotLoader(this)), m_model(new SnapshotModel(this)),
      m_cores(new CoreModel(this)), m_grid(new MaskGridModel(this)), m_undo(new QUndoStack(this)),
      m_gridView(new MaskGridView(m_grid, m_undo)), m_tree(new QTreeView),
      m_coreView(new QTableView), m_summary(new QLabel), m_warnings(new QPlainTextEdit) {
    setWindowTitle(tr("coresteer"));
    resize(1100, 720);

    m_tree->setModel(m_model);
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_coreView->setModel(m_cores);
    m_coreView->verticalHeader()->hide();
    m_coreView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_warnings->setReadOnly(true);
    m_warnings->setMaximumBlockCount(500);
    m_warnings->setPlaceholderText(tr("No warnings"));

    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->addWidget(m_summary);
    topLayout->addWidget(m_coreView);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    auto* tabs = new QTabWidget;
    tabs->addTab(m_gridView, tr("Masks"));
    tabs->addTab(m_tree, tr("Details"));
    split->addWidget(tabs);
    split->addWidget(m_warnings);
    split->setStretchFactor(1, 3);
    split->setSizes({200, 560, 80}); // the grid is the centre
    setCentralWidget(split);

    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open root directory..."), this, &MainWindow::openRoot);
    open->setShortcut(QKeySequence::Open);
    auto* reload = file->addAction(tr("&Reload"), this, [this] { loadRoot(m_root); });
    reload->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    auto* undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    auto* redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    auto* layout = menuBar()->addMenu(tr("&Layout"));
    auto* rec = layout->addAction(tr("&Recommend"), this, &MainWindow::recommend);
    rec->setToolTip(tr("Show the planner's layout for this router as pending changes"));
    layout->addAction(tr("&Discard pending changes"), this, [this] {
        std::map<int, CpuMask> masks;
        for (int r = 0; r < m_grid->rowCount(); ++r)
            if (const auto c = m_grid->current(r))
                masks.emplace(r, *c);
        m_gridView->applyMasks(masks, tr("Discard pending changes"));
    });

    auto* presets = menuBar()->addMenu(tr("&Presets"));
    for (const auto& f : QDir(QStringLiteral(":/presets")).entryList({QStringLiteral("*.json")})) {
        QFile in(QStringLiteral(":/presets/") + f);
        if (!in.open(QIODevice::ReadOnly))
            continue;
        const auto p = parsePreset(in.readAll().toStdString(), nullptr);
        if (!p)
            continue;
        auto* a = presets->addAction(QString::fromStdString(p->name), this,
                                     [this, f] { loadPreset(QStringLiteral(":/presets/") + f); });
        a->setToolTip(QString::fromStdString(p->note));
        a->setStatusTip(QString::fromStdString(p->board));
    }
    presets->addSeparator();
    presets->addAction(tr("&Open preset..."), this, [this] {
        const auto f = QFileDialog::getOpenFileName(this, tr("Open a preset"), QString(),
                                                    tr("coresteer presets (*.json)"));
        if (!f.isEmpty())
            loadPreset(f);
    });

    connect(m_loader, &SnapshotLoader::loaded, this, &MainWindow::showSnapshot);
}

bool MainWindow::loadPreset(const QString& path) {
    QFile file(path);
    std::string error = "cannot read the file";
    std::optional<Preset> p;
    if (file.open(QIODevice::ReadOnly))
        p = parsePreset(file.readAll().toStdString(), &error);
    if (!p) {
        statusBar()->showMessage(
            tr("%1: %2").arg(path, QString::fromStdString(error).toHtmlEscaped()));
        return false;
    }
    showPending(p->layout, QString::fromStdString(p->name));
    const auto snap = m_grid->snapshot();
    if (snap && p->board != snap->system.boardName)
        statusBar()->showMessage(statusBar()->currentMessage() +
                                 tr(" (made on %1, this is %2)")
                                     .arg(QString::fromStdString(p->board),
                                          QString::fromStdString(snap->system.boardName)));
    return true;
}

void MainWindow::showPending(const Layout& layout, const QString& what) {
    const auto snap = m_grid->snapshot();
    if (!snap)
        return;
    // The layout on a scratch model gives each row's mask; one command sets them all.
    MaskGridModel scratch;
    scratch.setSnapshot(snap);
    const auto unplaced = scratch.setPendingLayout(layout);
    std::map<int, CpuMask> masks;
    for (int r = 0; r < scratch.rowCount(); ++r)
        if (const auto m = scratch.pending(r))
            masks.emplace(r, *m);
    m_gridView->applyMasks(masks, what);
    // The reasons, which the undo command does not carry, go on the rows as tooltips.
    m_grid->setPendingLayout(layout);
    QString msg = tr("%1: %2 changes").arg(what).arg(m_grid->changedCount());
    if (!unplaced.isEmpty())
        msg += tr("; not on this router: %1").arg(unplaced.join(QStringLiteral(", ")));
    statusBar()->showMessage(msg);
}

void MainWindow::recommend() {
    if (const auto snap = m_grid->snapshot())
        showPending(plan(*snap), tr("Recommend"));
}

void MainWindow::loadRoot(const QString& root) {
    m_root = root;
    statusBar()->showMessage(tr("Reading %1 ...").arg(root));
    m_loader->load(root);
}

void MainWindow::openRoot() {
    const auto dir =
        QFileDialog::getExistingDirectory(this, tr("Root of a /proc and /sys tree"), m_root);
    if (!dir.isEmpty())
        loadRoot(dir);
}

void MainWindow::showSnapshot(quint64, SnapshotPtr snap) {
    m_model->setSnapshot(snap);
    m_cores->setSnapshot(snap);
    m_grid->setSnapshot(snap);
    m_tree->expandAll();
    for (int c = 0; c < m_model->columnCount(); ++c)
        m_tree->resizeColumnToContents(c);

    const auto& s = snap->system;
    QStringList facts;
    facts << tr("<b>%1</b>")
                 .arg(QString::fromStdString(s.hostname.empty() ? snap->origin : s.hostname)
                          .toHtmlEscaped());
    if (!s.model.empty() || !s.boardName.empty())
        facts << QString::fromStdString(s.model.empty() ? s.boardName : s.model).toHtmlEscaped();
    if (s.isOpenWrt())
        facts << tr("OpenWrt %1").arg(QString::fromStdString(s.openwrtRelease).toHtmlEscaped());
    else if (!s.distribution.empty())
        facts << QString::fromStdString(s.distribution).toHtmlEscaped();
    facts << tr("kernel %1").arg(QString::fromStdString(s.kernel).toHtmlEscaped());
    QStringList classes;
    for (const auto& c : snap->topology.classes)
        classes << QStringLiteral("%1 %2").arg(QString::fromStdString(c.name),
                                               QString::fromStdString(c.cpus.toList()));
    facts << tr("cores: %1").arg(classes.join(QStringLiteral(", ")));
    QString text = facts.join(QStringLiteral(" &middot; "));
    for (const auto& c : detectConflicts(*snap))
        text += QStringLiteral("<br>%1<b>%2</b>: %3 <i>%4</i>%5")
                    .arg(c.blocking ? QStringLiteral("<span style='color:#b00'>") : QString(),
                         QString::fromStdString(c.title).toHtmlEscaped(),
                         QString::fromStdString(c.detail).toHtmlEscaped(),
                         QString::fromStdString(c.suggestion).toHtmlEscaped(),
                         c.blocking ? QStringLiteral("</span>") : QString());
    m_summary->setText(text);

    QStringList lines;
    for (const auto& d : snap->diagnostics.entries())
        lines << QString::fromStdString(d.toString());
    m_warnings->setPlainText(lines.join(QLatin1Char('\n')));
    setWindowTitle(tr("coresteer - %1").arg(QString::fromStdString(snap->origin)));
    statusBar()->showMessage(tr("%1 interfaces, %2 IRQs, %3 warnings")
                                 .arg(snap->interfaces.size())
                                 .arg(snap->irqs.size())
                                 .arg(snap->diagnostics.entries().size()));
    Q_EMIT snapshotShown();
}

} // namespace coresteer::ui
