#include "ui/snapshotloader.h"

#include "core/collect_local.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace coresteer::ui {

SnapshotLoader::SnapshotLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<SnapshotPtr>();
}

SnapshotLoader::~SnapshotLoader() = default;

quint64 SnapshotLoader::load(const QString& root) {
    const quint64 job = ++m_job;
    const std::string path = root.toStdString();
    // The watcher lives in this thread and dies with the loader, so a result that arrives
    // after the loader is gone is never delivered anywhere.
    auto* watcher = new QFutureWatcher<SnapshotPtr>(this);
    connect(watcher, &QFutureWatcher<SnapshotPtr>::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        deliver(job, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([path]() -> SnapshotPtr {
        return std::make_shared<const Snapshot>(buildSnapshot(collectLocal(path)));
    }));
    return job;
}

void SnapshotLoader::deliver(quint64 job, SnapshotPtr snap) {
    if (job != m_job)
        return; // an answer to a superseded request
    Q_EMIT loaded(job, std::move(snap));
}

} // namespace coresteer::ui
