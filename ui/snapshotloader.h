// Reads a snapshot on a worker thread and hands it to the UI as an immutable value.
#pragma once

#include "core/snapshot.h"

#include <QObject>
#include <QString>

#include <memory>

namespace coresteer::ui {

using SnapshotPtr = std::shared_ptr<const Snapshot>;

class SnapshotLoader : public QObject {
    Q_OBJECT
public:
    explicit SnapshotLoader(QObject* parent = nullptr);
    ~SnapshotLoader() override;

    // Starts reading `root` in the background; returns the job id that loaded() will carry.
    // A newer load makes the answers of older ones be dropped.
    quint64 load(const QString& root);
    quint64 currentJob() const { return m_job; }

Q_SIGNALS:
    void loaded(quint64 job, coresteer::ui::SnapshotPtr snapshot);

private:
    void deliver(quint64 job, SnapshotPtr snap);
    quint64 m_job = 0;
};

} // namespace coresteer::ui

Q_DECLARE_METATYPE(coresteer::ui::SnapshotPtr)
