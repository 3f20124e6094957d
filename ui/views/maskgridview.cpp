// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/maskgridview.h"

#include "core/layout/layout_json.h"
#include "ui/views/maskgridheader.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QUndoCommand>
#include <QUndoStack>

#include <set>

namespace coresteer::ui {

using namespace coresteer::layout;

namespace {

// One undoable change of any number of rows' pending masks.
class SetMasksCommand : public QUndoCommand {
public:
    SetMasksCommand(MaskGridModel* model, std::map<int, CpuMask> before,
                    std::map<int, CpuMask> after, const QString& text,
                    std::optional<std::pair<Layout, Layout>> extras = std::nullopt)
        : QUndoCommand(text), m_model(model), m_before(std::move(before)),
          m_after(std::move(after)), m_extras(std::move(extras)) {}
    void undo() override {
        if (m_extras)
            m_model->setExtras(m_extras->first);
        for (const auto& [row, mask] : m_before)
            m_model->setPending(row, mask);
    }
    void redo() override {
        if (m_extras)
            m_model->setExtras(m_extras->second);
        for (const auto& [row, mask] : m_after)
            m_model->setPending(row, mask);
    }

private:
    MaskGridModel* m_model;
    std::map<int, CpuMask> m_before, m_after;
    std::optional<std::pair<Layout, Layout>> m_extras; // before, after
};

bool isCpuCell(const QModelIndex& i) {
    return i.isValid() && i.column() >= MaskGridModel::FirstCpu &&
           (i.flags() & Qt::ItemIsUserCheckable);
}

} // namespace

void MaskCellDelegate::paint(QPainter* p, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const {
    if (index.column() < MaskGridModel::FirstCpu) {
        QStyledItemDelegate::paint(p, option, index);
        return;
    }
    p->save();
    const QRect r = option.rect.adjusted(1, 1, -1, -1);
    const auto load = index.data(MaskGridModel::CpuLoadRole);
    if (load.isValid()) {
        // The CPU's load as a warm bar from the bottom: the hot core stands out in every row.
        const double l = std::clamp(load.toDouble(), 0.0, 1.0);
        QRect bar = r;
        bar.setTop(r.bottom() - static_cast<int>(r.height() * l));
        p->fillRect(bar, QColor::fromHsvF(0.06, 0.35 + 0.5 * l, 1.0, 0.55));
    }
    const bool cur = index.data(MaskGridModel::CurrentRole).toBool();
    const bool pen = index.data(MaskGridModel::PendingRole).toBool();
    if (cur || pen) {
        const auto c = index.data(Qt::BackgroundRole).value<QColor>();
        p->setRenderHint(QPainter::Antialiasing);
        p->setPen(Qt::NoPen);
        p->setBrush(c);
        const int d = std::min(r.width(), r.height()) - 4;
        const QRect dot(r.center().x() - d / 2, r.center().y() - d / 2, d, d);
        if (pen)
            p->drawRoundedRect(dot, 3, 3);
        else {
            p->setBrush(Qt::NoBrush); // going away: an outline
            p->setPen(QPen(c, 2));
            p->drawRoundedRect(dot.adjusted(1, 1, -1, -1), 3, 3);
        }
    }
    if (option.state & QStyle::State_HasFocus) {
        p->setPen(QPen(option.palette.highlight().color(), 1, Qt::DotLine));
        p->setBrush(Qt::NoBrush);
        p->drawRect(r);
    }
    p->restore();
}

MaskGridView::MaskGridView(MaskGridModel* model, QUndoStack* undo, QWidget* parent)
    : QTableView(parent), m_model(model), m_undo(undo) {
    setModel(model);
    setItemDelegate(new MaskCellDelegate(this));
    setSelectionMode(QAbstractItemView::NoSelection);
    setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    setMouseTracking(false);
    setHorizontalHeader(new MaskGridHeader(this));
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    horizontalHeader()->setMinimumSectionSize(16);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // The first columns again, over the grid's own, so they stay while the CPUs scroll: the
    // same model, selection and rows, none of the CPU columns.
    m_frozen = new QTableView(this);
    m_frozen->setObjectName(QStringLiteral("frozenColumns"));
    m_frozen->setModel(model);
    m_frozen->setSelectionModel(selectionModel());
    m_frozen->setItemDelegate(new MaskCellDelegate(m_frozen));
    m_frozen->setSelectionMode(QAbstractItemView::NoSelection);
    m_frozen->setEditTriggers(editTriggers());
    m_frozen->setFocusPolicy(Qt::NoFocus);
    m_frozen->verticalHeader()->hide();
    m_frozen->verticalHeader()->setDefaultSectionSize(verticalHeader()->defaultSectionSize());
    m_frozen->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollMode(verticalScrollMode());
    m_frozen->setFrameShape(QFrame::NoFrame);
    m_frozen->setContextMenuPolicy(Qt::CustomContextMenu);
    viewport()->stackUnder(m_frozen);
    connect(m_frozen, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        rowMenu(m_frozen->indexAt(pos), m_frozen->viewport()->mapToGlobal(pos));
    });
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    // A first column resized on either is resized on both.
    connect(horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int section, int, int size) {
                if (section < MaskGridModel::FirstCpu && m_frozen->columnWidth(section) != size) {
                    m_frozen->setColumnWidth(section, size);
                    placeFrozen();
                }
            });
    connect(m_frozen->horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int section, int, int size) {
                if (section < MaskGridModel::FirstCpu && columnWidth(section) != size)
                    setColumnWidth(section, size);
            });
    // Typed masks and checkbox toggles from the model's editors go onto the undo stack too.
    model->setEditHook([this](int row, const CpuMask& mask) {
        if (!m_model->acceptable(row, mask))
            return false;
        applyMasks({{row, mask}}, m_model->index(row, MaskGridModel::Target).data().toString());
        return true;
    });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        resizeColumnToContents(MaskGridModel::Target);
        resizeColumnToContents(MaskGridModel::Change);
        for (int c = 0; c < m_model->columnCount(); ++c)
            m_frozen->setColumnHidden(c, c >= MaskGridModel::FirstCpu);
        for (int c = 0; c < MaskGridModel::FirstCpu; ++c)
            m_frozen->setColumnWidth(c, columnWidth(c));
        fitCpuColumns();
        // The header grows a band where the router has classes of core to name.
        horizontalHeader()->updateGeometry();
        updateGeometries();
        // A new router: the old edits mean nothing there.
        m_undo->clear();
    });
}

int MaskGridView::minimumCpuColumnWidth() const {
    const int last = std::max(m_model->cpuCount() - 1, 0);
    return std::max(fontMetrics().horizontalAdvance(QString::number(last)) + 10, 20);
}

int MaskGridView::frozenWidth() const {
    int w = 0;
    for (int c = 0; c < MaskGridModel::FirstCpu && c < m_model->columnCount(); ++c)
        w += columnWidth(c);
    return w;
}

void MaskGridView::fitCpuColumns() {
    const int cpus = m_model->cpuCount();
    if (cpus <= 0)
        return;
    // As wide as 32 px where the width allows, as narrow as the numbers where it does not;
    // narrower than that, the CPUs scroll.
    const int room = viewport()->width() - frozenWidth();
    const int w = std::clamp(room / cpus, minimumCpuColumnWidth(), 32);
    for (int c = MaskGridModel::FirstCpu; c < m_model->columnCount(); ++c)
        if (columnWidth(c) != w)
            setColumnWidth(c, w);
}

void MaskGridView::placeFrozen() {
    const int header = horizontalHeader()->height();
    m_frozen->horizontalHeader()->setFixedHeight(header);
    m_frozen->setGeometry(frameWidth(), frameWidth(), frozenWidth(), viewport()->height() + header);
    // Only when the CPUs scroll is there anything to keep in place.
    m_frozen->setVisible(horizontalScrollBar()->maximum() > 0);
}

void MaskGridView::resizeEvent(QResizeEvent* e) {
    QTableView::resizeEvent(e);
    fitCpuColumns();
    placeFrozen();
}

void MaskGridView::updateGeometries() {
    QTableView::updateGeometries();
    if (m_frozen)
        placeFrozen();
}

void MaskGridView::scrollTo(const QModelIndex& index, ScrollHint hint) {
    QTableView::scrollTo(index, hint);
    if (!index.isValid() || index.column() < MaskGridModel::FirstCpu || !m_frozen->isVisible())
        return;
    // A CPU cell left of the overlay's edge is hidden by it: bring it out.
    const int x = columnViewportPosition(index.column());
    if (x < frozenWidth())
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - (frozenWidth() - x));
}

void MaskGridView::applyMasks(const std::map<int, CpuMask>& masks, const QString& what,
                              std::optional<Layout> extras) {
    std::map<int, CpuMask> before, after;
    for (const auto& [row, mask] : masks) {
        const auto old = m_model->pending(row);
        if (!old || *old == mask)
            continue;
        before.emplace(row, *old);
        after.emplace(row, mask);
    }
    std::optional<std::pair<Layout, Layout>> change;
    if (extras && toJson(*extras) != toJson(m_model->extras()))
        change.emplace(m_model->extras(), std::move(*extras));
    if (!after.empty() || change)
        m_undo->push(new SetMasksCommand(m_model, std::move(before), std::move(after), what,
                                         std::move(change)));
}

void MaskGridView::paintCell(const QModelIndex& index) {
    // Straight to the model: the whole stroke becomes one command when the button goes up.
    if (!isCpuCell(index) || index.row() != m_strokeRow)
        return;
    auto mask = *m_model->pending(index.row());
    const int cpu = index.column() - MaskGridModel::FirstCpu;
    if (mask.test(cpu) == m_strokeOn)
        return;
    mask.set(cpu, m_strokeOn);
    m_model->setPending(index.row(), mask); // refused (an IRQ with no CPU): stays as it was
}

void MaskGridView::mousePressEvent(QMouseEvent* e) {
    const auto index = indexAt(e->position().toPoint());
    if (e->button() != Qt::LeftButton || !isCpuCell(index)) {
        QTableView::mousePressEvent(e);
        return;
    }
    setCurrentIndex(index);
    m_strokeRow = index.row();
    m_strokeOn = !index.data(MaskGridModel::PendingRole).toBool();
    m_strokeBefore = {{index.row(), *m_model->pending(index.row())}};
    paintCell(index);
    e->accept();
}

void MaskGridView::mouseMoveEvent(QMouseEvent* e) {
    if (m_strokeRow < 0) {
        QTableView::mouseMoveEvent(e);
        return;
    }
    paintCell(indexAt(e->position().toPoint()));
    e->accept();
}

void MaskGridView::mouseReleaseEvent(QMouseEvent* e) {
    if (m_strokeRow < 0) {
        QTableView::mouseReleaseEvent(e);
        return;
    }
    finishStroke();
    e->accept();
}

void MaskGridView::finishStroke() {
    // The stroke is already on screen; the command records it (its first redo changes nothing).
    std::map<int, CpuMask> after;
    for (const auto& [row, mask] : m_strokeBefore)
        if (const auto now = m_model->pending(row); now && !(*now == mask))
            after.emplace(row, *now);
    if (!after.empty())
        m_undo->push(new SetMasksCommand(
            m_model, m_strokeBefore, after,
            m_model->index(m_strokeRow, MaskGridModel::Target).data().toString()));
    m_strokeRow = -1;
    m_strokeBefore.clear();
}

void MaskGridView::keyPressEvent(QKeyEvent* e) {
    const auto index = currentIndex();
    if (e->key() == Qt::Key_Space && isCpuCell(index)) {
        auto mask = *m_model->pending(index.row());
        const int cpu = index.column() - MaskGridModel::FirstCpu;
        mask.set(cpu, !mask.test(cpu));
        applyMasks({{index.row(), mask}},
                   m_model->index(index.row(), MaskGridModel::Target).data().toString());
        e->accept();
        return;
    }
    QTableView::keyPressEvent(e);
}

void MaskGridView::editInterface(const std::string& iface,
                                 const std::function<void(layout::InterfaceTarget&)>& edit,
                                 const QString& what) {
    auto extras = m_model->extras();
    auto& list = extras.interfaces;
    auto it = std::find_if(list.begin(), list.end(),
                           [&](const layout::InterfaceTarget& t) { return t.interface == iface; });
    if (it == list.end()) {
        list.emplace_back();
        it = std::prev(list.end());
        it->interface = iface;
        it->why = "Chosen in the mask grid.";
    }
    edit(*it);
    if (!it->threaded && !it->rxUsecs && !it->rxFrames && !it->napiCpus && !it->txWorkerCpus &&
        !it->channels.any() && !it->rss)
        list.erase(it);
    applyMasks({}, what, std::move(extras));
}

bool MaskGridView::chooseThreaded(int row, std::optional<bool> on) {
    const auto snap = m_model->snapshot(); // holds what nif points into
    const auto iface = m_model->interfaceOf(row);
    const auto* nif = m_model->threadedSwitch(iface);
    if (!nif)
        return false;
    // As the router has it: no switch at all.
    if (on == nif->threadedNapi)
        on.reset();
    editInterface(
        nif->name, [&](layout::InterfaceTarget& t) { t.threaded = on; },
        iface + QStringLiteral(": threaded NAPI ") +
            (on ? (*on ? QStringLiteral("on") : QStringLiteral("off"))
                : QStringLiteral("as it is")));
    return true;
}

bool MaskGridView::chooseQueuePairs(int row, std::optional<std::uint32_t> combined) {
    const auto snap = m_model->snapshot();
    const auto iface = m_model->interfaceOf(row);
    const auto* nif = snap ? snap->interface(iface.toStdString()) : nullptr;
    if (!nif || !nif->channels || !nif->channels->combined.current)
        return false;
    if (combined == nif->channels->combined.current)
        combined.reset();
    editInterface(
        nif->name, [&](layout::InterfaceTarget& t) { t.channels.combined = combined; },
        iface + QStringLiteral(": ") +
            (combined ? QString::number(*combined) + QStringLiteral(" queue pairs")
                      : QStringLiteral("queue pairs as they are")));
    return true;
}

bool MaskGridView::chooseRss(int row, std::optional<RssSpread> spread) {
    const auto snap = m_model->snapshot();
    const auto iface = m_model->interfaceOf(row);
    const auto* nif = snap ? snap->interface(iface.toStdString()) : nullptr;
    if (!nif || !nif->rss || nif->rss->table.empty())
        return false;
    if (spread && RssSpread::of(nif->rss->table, nif->rss->rings) == spread &&
        !m_model->pendingCombined(iface))
        spread.reset();
    editInterface(
        nif->name, [&](layout::InterfaceTarget& t) { t.rss = spread; },
        iface + QStringLiteral(": RSS ") +
            (spread ? QString::fromStdString(spread->toString()) : QStringLiteral("as it is")));
    return true;
}

void MaskGridView::contextMenuEvent(QContextMenuEvent* e) {
    rowMenu(indexAt(e->pos()), e->globalPos());
}

void MaskGridView::rowMenu(const QModelIndex& index, const QPoint& globalPos) {
    if (!index.isValid())
        return;
    if (m_model->kind(index.row()) == MaskGridModel::RowKind::Interface) {
        // Threaded NAPI where the kernel has the switch; queue pairs and the RSS spread where
        // ethtool showed them.
        const auto snap = m_model->snapshot(); // holds what nif points into
        const auto iface = m_model->interfaceOf(index.row());
        const auto* nif = snap ? snap->interface(iface.toStdString()) : nullptr;
        if (!nif)
            return;
        QMenu menu(this);
        const int row = index.row();
        if (nif->threadedNapi) {
            const auto pending = m_model->pendingThreaded(iface).value_or(*nif->threadedNapi);
            menu.addSection(iface + QStringLiteral(": threaded NAPI"));
            for (const bool on : {true, false}) {
                auto* a = menu.addAction(on ? QStringLiteral("On: receive work in its own threads")
                                            : QStringLiteral("Off: receive work in the softirq"),
                                         this, [this, row, on] { chooseThreaded(row, on); });
                a->setCheckable(true);
                a->setChecked(pending == on);
            }
        }
        const auto& ch = nif->channels;
        if (ch && ch->combined.current && ch->combined.max && *ch->combined.max > 1) {
            const auto pending = m_model->pendingCombined(iface).value_or(*ch->combined.current);
            menu.addSection(iface + QStringLiteral(": queue pairs (ethtool -L)"));
            std::set<std::uint32_t> counts{*ch->combined.max, *ch->combined.current};
            for (std::uint32_t n = 1; n < *ch->combined.max && counts.size() < 12; n *= 2)
                counts.insert(n);
            for (const auto n : counts) {
                auto* a = menu.addAction(QString::number(n), this,
                                         [this, row, n] { chooseQueuePairs(row, n); });
                a->setCheckable(true);
                a->setChecked(pending == n);
            }
        }
        if (nif->rss && !nif->rss->table.empty()) {
            const auto rings = m_model->pendingCombined(iface).value_or(nif->rss->rings);
            const auto now = RssSpread::of(nif->rss->table, nif->rss->rings);
            const auto pending = m_model->pendingRss(iface);
            menu.addSection(iface + QStringLiteral(": RSS spread (ethtool -X)"));
            std::vector<RssSpread> choices{RssSpread{}};
            for (std::uint32_t n = 1; n < rings && choices.size() < 16; ++n)
                choices.push_back(RssSpread{n, {}});
            for (const auto& c : choices) {
                const auto label =
                    c.isDefault() ? QStringLiteral("Default: flows over all %1 rings").arg(rings)
                                  : QStringLiteral("Equal over rings 0-%1").arg(c.equal - 1);
                auto* a = menu.addAction(label, this, [this, row, c] { chooseRss(row, c); });
                a->setCheckable(true);
                a->setChecked(pending ? *pending == c : now && *now == c);
            }
        }
        if (menu.isEmpty())
            return;
        menu.exec(globalPos);
        return;
    }
    const int row = index.row();
    const auto snap = m_model->snapshot();
    const int width = m_model->cpuCount();
    const QString name = m_model->index(row, MaskGridModel::Target).data().toString();
    QMenu menu(this);
    auto set = [&](const QString& text, const CpuMask& m) {
        auto* a = menu.addAction(text, this, [this, row, m, name, text] {
            applyMasks({{row, m}}, name + QStringLiteral(": ") + text);
        });
        const auto k = m_model->kind(row);
        a->setEnabled(
            !(m.none() && (k == MaskGridModel::RowKind::Irq || k == MaskGridModel::RowKind::Napi ||
                           k == MaskGridModel::RowKind::TxWorker)));
    };
    if (snap && snap->topology.classes.size() >= 2)
        set(QStringLiteral("Spread over the %1 cores")
                .arg(QString::fromStdString(snap->topology.classes.back().name)),
            snap->topology.classes.back().cpus);
    set(QStringLiteral("All cores"), snap ? snap->topology.online : CpuMask::firstN(width));
    if (isCpuCell(index))
        set(QStringLiteral("Only CPU %1").arg(index.column() - MaskGridModel::FirstCpu),
            CpuMask::fromCpus({index.column() - MaskGridModel::FirstCpu}, width));
    set(QStringLiteral("Clear"), CpuMask(width));
    menu.addSeparator();
    const auto pending = m_model->pending(row);
    menu.addAction(QStringLiteral("Copy the mask as hex"), this, [pending, width] {
        QApplication::clipboard()->setText(QString::fromStdString(pending->toHex(width)));
    });
    menu.addAction(QStringLiteral("Copy the mask as a CPU list"), this, [pending] {
        QApplication::clipboard()->setText(QString::fromStdString(pending->toList()));
    });
    menu.exec(globalPos);
}

} // namespace coresteer::ui
