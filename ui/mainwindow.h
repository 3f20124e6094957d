// The main window: the snapshot of one machine, its cores and its interfaces.
#pragma once

#include "core/layout/layout.h"
#include "ui/snapshotloader.h"

#include <QMainWindow>

class QLabel;
class QPlainTextEdit;
class QTreeView;
class QTableView;
class QUndoStack;

namespace coresteer::ui {

class CoreModel;
class MaskGridModel;
class MaskGridView;
class SnapshotModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Reads /proc and /sys below `root` in the background ("/" for this machine).
    void loadRoot(const QString& root);
    SnapshotModel* snapshotModel() const { return m_model; }
    CoreModel* coreModel() const { return m_cores; }
    MaskGridModel* gridModel() const { return m_grid; }
    MaskGridView* gridView() const { return m_gridView; }
    QUndoStack* undoStack() const { return m_undo; }
    // Shows the planner's layout for this router as pending, as one undoable step.
    void recommend();
    // Shows a preset file's layout as pending (one undoable step); a preset made on another
    // board, and the targets it has that this router lacks, are named in the status bar.
    // False with a message there when the file is not a preset.
    bool loadPreset(const QString& file);

Q_SIGNALS:
    void snapshotShown();

private:
    void showSnapshot(quint64 job, SnapshotPtr snap);
    void openRoot();
    void showPending(const Layout& layout, const QString& what);

    SnapshotLoader* m_loader;
    SnapshotModel* m_model;
    CoreModel* m_cores;
    MaskGridModel* m_grid;
    QUndoStack* m_undo;
    MaskGridView* m_gridView;
    QTreeView* m_tree;
    QTableView* m_coreView;
    QLabel* m_summary;
    QPlainTextEdit* m_warnings;
    QString m_root;
};

} // namespace coresteer::ui
