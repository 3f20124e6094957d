// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The Live tab's files: a recording saved (core/live/recording.h's format), as CSV and as one
// picture (recordingimage.h); the view as a picture of the widget and its samples as CSV
// (live::historyCsv). A file is written whole or not at all (QSaveFile): one that cannot be
// written keeps what it had, and the error names it.
#pragma once

#include "core/live/history.h"
#include "core/live/recording.h"

#include <QCoreApplication>
#include <QString>

#include <string>

class QImage;
class QWidget;

namespace coresteer::ui {

class LiveExport {
    Q_DECLARE_TR_FUNCTIONS(LiveExport)
public:
    // Each false with *error (when given) when the file is not written.
    static bool saveRecording(const live::Recording& recording, const QString& file,
                              QString* error);
    static bool recordingCsv(const live::Recording& recording, const QString& file, QString* error);
    static bool recordingPng(const live::Recording& recording, const QString& file, QString* error);
    static bool samplesCsv(const live::History& history, const QString& file, QString* error);
    // `widget` as it is on screen.
    static bool widgetPng(QWidget& widget, const QString& file, QString* error);

private:
    static bool writeWhole(const QString& file, const std::string& text, QString* error);
    static bool savePng(const QImage& image, const QString& file, QString* error);
};

} // namespace coresteer::ui
