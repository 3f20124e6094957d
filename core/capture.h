// A capture: everything one snapshot read from a router, in one file.
//
// The format is the collector's own framing (see collect_remote.h) behind a header line
// "coresteer-capture 1 <token>", so a capture is read by the same strict parser as a live
// router's answer and carries the same guarantees. The demo router is a capture of the NanoPi
// R6S fixture, compiled in; `coresteer-cli capture` writes one for a bug report.
#pragma once

#include "core/bundle.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace coresteer {

std::string writeCapture(const FileBundle& bundle);
// nullopt with *error when the text is not a capture or its framing is broken.
std::optional<FileBundle> readCapture(std::string_view text, std::string* error);

// Lays the bundle out as a tree under `dir` (files, symlinks, directories), so that scripts can
// run against it as against a fixture root. False with *error on the first failure. Paths that
// would leave `dir` are refused.
bool materialize(const FileBundle& bundle, const std::filesystem::path& dir, std::string* error);

} // namespace coresteer
