#include "core/capture.h"

#include "core/collect_remote.h"
#include "core/ssh/session.h"
#include "core/text.h"

#include <fstream>

namespace coresteer {

namespace {
constexpr std::string_view kMagic = "coresteer-capture 1 ";
}

std::string writeCapture(const FileBundle& bundle) {
    // A token that no content holds, so the framing cannot be confused.
    std::string token;
    bool clash = true;
    while (clash) {
        token = ssh::randomToken("@@cs");
        clash = false;
        for (const auto& [path, e] : bundle.entries())
            clash = clash || e.data.find(token) != std::string::npos;
    }
    std::string out = std::string(kMagic) + token + "\n";
    for (const auto& [path, e] : bundle.entries()) {
        switch (e.kind) {
        case BundleEntry::Kind::File:
            out += token + " F " + path + "\n" + e.data + "\n" + token + " E 0\n";
            break;
        case BundleEntry::Kind::Link:
            out += token + " L " + path + "\n" + e.data + "\n" + token + " E\n";
            break;
        case BundleEntry::Kind::Dir:
            out += token + " D " + path + "\n" + e.data + "\n" + token + " E\n";
            break;
        case BundleEntry::Kind::Missing:
            out += token + " M " + path + "\n\n" + token + " E\n";
            break;
        case BundleEntry::Kind::Unreadable:
            out += token + " F " + path + "\n\n" + token +
                   " E 1 capture: " + (e.data.empty() ? std::string("unreadable") : e.data) + "\n";
            break;
        case BundleEntry::Kind::TooLarge:
            out += token + " F " + path + "\n\n" + token + " E 1 capture: larger than " + e.data +
                   " bytes\n";
            break;
        }
    }
    out += token + " DONE\n";
    return out;
}

std::optional<FileBundle> readCapture(std::string_view text, std::string* error) {
    if (!text::startsWith(text, kMagic)) {
        if (error)
            *error = "not a coresteer capture (line 1 does not start with \"coresteer-capture 1\")";
        return std::nullopt;
    }
    const auto eol = text.find('\n');
    if (eol == std::string_view::npos) {
        if (error)
            *error = "a capture with nothing after its header";
        return std::nullopt;
    }
    const std::string token(text::trim(text.substr(kMagic.size(), eol - kMagic.size())));
    if (token.size() < 8 || token.find(' ') != std::string::npos) {
        if (error)
            *error = "line 1: bad capture token";
        return std::nullopt;
    }
    FileBundle b;
    if (!parseCollectOutput(text.substr(eol + 1), token, b, error))
        return std::nullopt;
    return b;
}

bool materialize(const FileBundle& bundle, const std::filesystem::path& dir, std::string* error) {
    namespace fs = std::filesystem;
    auto fail = [&](const std::string& msg) {
        if (error)
            *error = msg;
        return false;
    };
    std::error_code ec;
    for (const auto& [path, e] : bundle.entries()) {
        const fs::path rel(path);
        if (path.empty() || rel.is_absolute() || path.find("..") != std::string::npos)
            return fail("refused path " + text::printable(path));
        if (!e.ok())
            continue; // a missing file stays missing, and makes no directory either
        const auto p = dir / rel;
        fs::create_directories(p.parent_path(), ec);
        switch (e.kind) {
        case BundleEntry::Kind::File: {
            std::ofstream f(p, std::ios::binary | std::ios::trunc);
            f << e.data;
            if (!f)
                return fail(p.string() + ": cannot write");
            break;
        }
        case BundleEntry::Kind::Link: {
            // sysfs links point into the same tree (device -> ../../../devices/...): the target
            // directory is made too, so that entries below the link (device/driver) have a
            // place. A target outside `dir` stays a dangling link.
            const auto target = (p.parent_path() / e.data).lexically_normal();
            const auto inside = target.lexically_relative(dir.lexically_normal());
            if (!e.data.empty() && e.data.front() != '/' && !inside.empty() &&
                *inside.begin() != "..")
                fs::create_directories(target, ec);
            fs::remove(p, ec);
            fs::create_symlink(e.data, p, ec);
            if (ec)
                return fail(p.string() + ": " + ec.message());
            break;
        }
        case BundleEntry::Kind::Dir:
            fs::create_directories(p, ec);
            if (ec)
                return fail(p.string() + ": " + ec.message());
            break;
        default:
            break;
        }
    }
    // Listed names that nothing below was read from (a tx-0 without xps_cpus) are directories
    // in sysfs and procfs: they are made, so that a listing of the tree names them again.
    for (const auto& [path, e] : bundle.entries()) {
        if (e.kind != BundleEntry::Kind::Dir)
            continue;
        for (const auto& name : bundle.list(path)) {
            const auto child = path + "/" + name;
            if (name.find('/') != std::string::npos || name == "." || name == ".." ||
                bundle.get(child))
                continue;
            if (!fs::exists(dir / child, ec))
                fs::create_directories(dir / child, ec);
        }
    }
    return true;
}

} // namespace coresteer
