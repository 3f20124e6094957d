// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/liveexport.h"

#include "ui/live/recordingimage.h"

#include <QImage>
#include <QPixmap>
#include <QSaveFile>
#include <QWidget>

namespace coresteer::ui {

bool LiveExport::writeWhole(const QString& file, const std::string& text, QString* error) {
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) ||
        out.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !out.commit()) {
        if (error)
            *error = tr("%1: %2").arg(file, out.errorString());
        return false;
    }
    return true;
}

bool LiveExport::savePng(const QImage& image, const QString& file, QString* error) {
    if (image.isNull() || !image.save(file, "PNG")) {
        if (error)
            *error = tr("%1: cannot be written").arg(file);
        return false;
    }
    return true;
}

bool LiveExport::saveRecording(const live::Recording& recording, const QString& file,
                               QString* error) {
    return writeWhole(file, live::writeRecording(recording), error);
}

bool LiveExport::recordingCsv(const live::Recording& recording, const QString& file,
                              QString* error) {
    std::string why;
    const auto csv = live::recordingCsv(recording, &why);
    if (!csv) {
        if (error)
            *error = QString::fromStdString(why);
        return false;
    }
    return writeWhole(file, *csv, error);
}

bool LiveExport::recordingPng(const live::Recording& recording, const QString& file,
                              QString* error) {
    std::string why;
    const auto image = renderRecording(recording, &why);
    if (image.isNull()) {
        if (error)
            *error = QString::fromStdString(why);
        return false;
    }
    return savePng(image, file, error);
}

bool LiveExport::samplesCsv(const live::History& history, const QString& file, QString* error) {
    return writeWhole(file, live::historyCsv(history), error);
}

bool LiveExport::widgetPng(QWidget& widget, const QString& file, QString* error) {
    return savePng(widget.grab().toImage(), file, error);
}

} // namespace coresteer::ui
