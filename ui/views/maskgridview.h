// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// MaskGridView: the mask grid as the user works it. A click on a CPU cell toggles it, dragging
// along a row paints the same state over the cells it crosses, Space toggles the current cell,
// and a row's context menu sets the whole mask (big cores, all cores, none) or copies it. Every
// change goes onto the QUndoStack, one command per click, drag or menu action.
// The CPU columns narrow to fit the width (down to what shows their numbers) and scroll beyond
// that, 64 cores and more, while the first columns (the row's name, its mask, its CPUs) stay in
// place over them; the header names each class of core once over its CPUs (MaskGridHeader).
#pragma once

#include "ui/models/maskgridmodel.h"

#include <QStyledItemDelegate>
#include <QTableView>

#include <functional>

#include <map>

class QUndoStack;

namespace coresteer::ui {

// Paints a CPU cell: kept, added, removed or empty, over the CPU's load.
class MaskCellDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* p, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

class MaskGridView : public QTableView {
    Q_OBJECT
public:
    MaskGridView(MaskGridModel* model, QUndoStack* undo, QWidget* parent = nullptr);

    MaskGridModel* gridModel() const { return m_model; }
    QUndoStack* undoStack() const { return m_undo; }
    // Sets pending masks as one undoable step ("Recommend", a preset, a menu action).
    // One undoable step: these rows' masks and, when given, the model's extras (see
    // MaskGridModel::offGrid).
    void applyMasks(const std::map<int, CpuMask>& masks, const QString& what,
                    std::optional<layout::Layout> extras = std::nullopt);
    // Threaded NAPI of the interface of `row` switched on or off (nullopt: as the router has
    // it), as an undoable edit of the pending extras; false where the kernel has no switch.
    bool chooseThreaded(int row, std::optional<bool> on);
    // The queue pairs (ethtool -L combined) and the RSS spread (ethtool -X) of the interface of
    // `row`, as undoable edits of the pending extras (nullopt: as the router has it); false
    // where ethtool showed no such thing for it.
    bool chooseQueuePairs(int row, std::optional<std::uint32_t> combined);
    bool chooseRss(int row, std::optional<RssSpread> spread);

    // The first columns, kept in place while the CPU columns scroll under them.
    QTableView* frozenColumns() const { return m_frozen; }
    // The narrowest a CPU column gets before the grid scrolls: its largest number shows whole.
    int minimumCpuColumnWidth() const;
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

protected:
    void resizeEvent(QResizeEvent* e) override;
    void updateGeometries() override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;

private:
    // One undoable edit of the pending extras' target for `iface` (added where it has none,
    // dropped once it sets nothing), described as `what`.
    void editInterface(const std::string& iface,
                       const std::function<void(layout::InterfaceTarget&)>& edit,
                       const QString& what);
    void paintCell(const QModelIndex& index);
    void rowMenu(const QModelIndex& index, const QPoint& globalPos);
    // The CPU columns' width for the space there is; the overlay's columns as the grid's.
    void fitCpuColumns();
    void placeFrozen();
    int frozenWidth() const;
    void finishStroke();

    MaskGridModel* m_model;
    QUndoStack* m_undo;
    QTableView* m_frozen = nullptr;
    // The drag in progress: its row, the state it paints, and each row's mask before it.
    int m_strokeRow = -1;
    bool m_strokeOn = false;
    std::map<int, CpuMask> m_strokeBefore;
};

} // namespace coresteer::ui
