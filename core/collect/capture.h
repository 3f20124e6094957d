// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A capture: everything one snapshot read from a router, in one file.
//
// The format is the collector's own framing (see collect_remote.h) behind a header line
// "coresteer-capture 1 <token>", so a capture is read by the same strict parser as a live
// router's answer and carries the same guarantees. The demo router is a capture of the NanoPi
// R6S fixture, compiled in; `coresteer-cli capture` writes one for a bug report.
#pragma once

#include "core/collect/bundle.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace coresteer {

std::string writeCapture(const FileBundle& bundle);
// nullopt with *error when the text is not a capture, its framing is broken, or an entry is one
// that no collector makes (see parseCollectOutput): the error starts "line N: " and names the
// entry. Lines count from `firstLine`, the capture's first line in the file that holds it.
std::optional<FileBundle> readCapture(std::string_view text, std::string* error, int firstLine = 1);

// Lays the bundle out as a tree under `dir` (files, symlinks, directories), so that scripts can
// run against it as against a fixture root. `dir` is made with mode 0700, or must be private to
// this user (0700) when it is there already (a QTemporaryDir); it may not be a link. Nothing is
// written through a link and nothing outside `dir`: every path is walked name by name with
// O_NOFOLLOW, a link the bundle declares is made as a link, and what lies under one is made where
// it points, found by this code, only while that stays inside `dir`; files are created anew
// (O_EXCL), never opened where something is. False with *error "<entry>: refused: <why>" on the
// first entry that cannot be laid out so: a path that is absolute or has '..', a name with a NUL
// byte or too long, a path under a link that points outside, under a file, or through a loop of
// links, an entry where something else is already.
bool materialize(const FileBundle& bundle, const std::filesystem::path& dir, std::string* error);

// readCapture() and materialize() in one, as the app opens a capture or a recording: every
// refusal, the layout's too, starts "line N: " (counted from `firstLine`).
bool layOutCapture(std::string_view text, const std::filesystem::path& dir, std::string* error,
                   int firstLine = 1);

} // namespace coresteer
