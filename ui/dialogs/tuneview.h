// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A tune's result as the tuning dialog shows it, read from its document (coresteer.tune/2,
// core/measure/tune_json.h: what the recording keeps and the command line prints), so that a
// live run and a recording's tune read the same. Every value is checked as it is read: a
// document from a file is untrusted.
//
// TuneTable: a row a candidate: the throughput and the latency increase each way, each the
// median of its trials with its 95 % interval, and the gain against the baseline on the
// objective's measures; the winner's row highlighted, a candidate left out greyed with why.
// TunePlot (Qt Charts): a chart a direction the load ran, of the objective's measure: every
// trial a dot, each candidate's median with its interval, the winner in a colour of its own.
#pragma once

#include <QStringList>
#include <QTableWidget>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <optional>

class QChartView;
class QHBoxLayout;
class QLabel;

namespace coresteer::ui {

// A median with its 95 % interval, as the document has it ({"median", "ci95": [lo, hi], "n"}).
struct TuneEstimate {
    double median = 0, lo = 0, hi = 0;
    int n = 0;
};
std::optional<TuneEstimate> tuneEstimate(const nlohmann::json& j);
// j[key], or null where `j` is no object or has no such key.
const nlohmann::json& tuneAt(const nlohmann::json& j, const char* key);
std::optional<double> tuneNumber(const nlohmann::json& j, const char* key);
QString tuneString(const nlohmann::json& j, const char* key, int max = 200);

class TuneTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { Name, Download, Upload, DownloadLatency, UploadLatency, Gain, Columns };
    explicit TuneTable(QWidget* parent = nullptr);
    // Fills the table from `tune`; an empty one for a document that is not a tune's.
    void setTune(const nlohmann::json& tune);
    int winnerRow() const { return m_winner; }
    // The height that shows every row.
    int fittingHeight() const;

private:
    int m_winner = -1;
};

class TunePlot : public QWidget {
    Q_OBJECT
public:
    explicit TunePlot(QWidget* parent = nullptr);
    void setTune(const nlohmann::json& tune);
    // For tests: the dots (trials) and intervals shown, and the directions charted.
    int dots() const { return m_dots; }
    int intervals() const { return m_intervals; }
    QStringList directions() const { return m_directions; }
    // The key under the charts: each candidate's number and whole name (rich text).
    QString keyText() const;

private:
    QChartView* chart(const nlohmann::json& tune, bool download, bool throughput);
    QHBoxLayout* m_charts;
    QLabel* m_key;
    int m_dots = 0, m_intervals = 0;
    QStringList m_directions;
};

} // namespace coresteer::ui
