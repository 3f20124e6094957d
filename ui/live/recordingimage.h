// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A recording as one picture, for reports and forum posts: the cores x time heatmap with each
// core's class, the latency strip with the bufferbloat grade, and the throughput strip (the load
// generator's when it ran, else the busiest interface's), on one time axis.
#pragma once

#include "core/live/recording.h"

#include <QImage>

#include <string>

namespace coresteer::ui {

// A null image with *error when the recording cannot be replayed.
QImage renderRecording(const live::Recording& recording, std::string* error);

} // namespace coresteer::ui
