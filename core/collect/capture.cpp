// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/collect/capture.h"

#include "core/base/shell.h"
#include "core/base/text.h"
#include "core/collect/collect_remote.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace coresteer {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view kMagic = "coresteer-capture 1 ";
}

std::string writeCapture(const FileBundle& bundle) {
    // A token that no content holds, so the framing cannot be confused.
    std::string token;
    bool clash = true;
    while (clash) {
        token = randomToken("@@cs");
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

namespace {

std::optional<FileBundle> parseCapture(std::string_view text, std::string* error, int firstLine,
                                       EntryLines* lines) {
    auto fail = [&](const std::string& why) -> std::optional<FileBundle> {
        if (error)
            *error = "line " + std::to_string(firstLine) + ": " + why;
        return std::nullopt;
    };
    if (!text::startsWith(text, kMagic))
        return fail("not a coresteer capture (it does not start with \"coresteer-capture 1\")");
    const auto eol = text.find('\n');
    if (eol == std::string_view::npos)
        return fail("a capture with nothing after its header");
    const std::string token(text::trim(text.substr(kMagic.size(), eol - kMagic.size())));
    if (token.size() < 8 || token.find(' ') != std::string::npos)
        return fail("bad capture token");
    FileBundle b;
    if (!parseCollectOutput(text.substr(eol + 1), token, b, error, firstLine + 1, lines))
        return std::nullopt;
    return b;
}

// A file descriptor, closed with the object.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd() { reset(); }
    Fd(Fd&& o) noexcept : m_fd(std::exchange(o.m_fd, -1)) {}
    Fd& operator=(Fd&& o) noexcept {
        if (this != &o) {
            reset();
            m_fd = std::exchange(o.m_fd, -1);
        }
        return *this;
    }
    int get() const { return m_fd; }
    explicit operator bool() const { return m_fd >= 0; }

private:
    void reset() {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }
    int m_fd = -1;
};

std::string kindOf(mode_t m) {
    if (S_ISREG(m))
        return "a file";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISLNK(m))
        return "a link";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "something that is not a file";
}

std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "" : "/") + n;
    return s;
}

std::optional<std::string> readLinkAt(int dir, const std::string& name) {
    std::string target(4096, '\0');
    const auto n = ::readlinkat(dir, name.c_str(), target.data(), target.size());
    if (n < 0 || static_cast<std::size_t>(n) >= target.size())
        return std::nullopt;
    target.resize(static_cast<std::size_t>(n));
    return target;
}

// The tree a bundle is laid out in. Paths are walked name by name from the directory's own
// descriptor with O_NOFOLLOW, so the kernel never follows a link on the way. A link there (one
// the bundle declared) is read, and its target walked by this code from the link's directory;
// a walk that would leave the tree, go through something that is not a directory, or through
// more than kMaxLinks links is refused with the reason.
class Tree {
public:
    static constexpr int kMaxLinks = 40; // as the kernel's own path walk

    explicit Tree(Fd root) : m_root(std::move(root)) {}

    // The directory at `names`, each made (mode 0700) where missing; *where is its path in the
    // tree as found, links resolved. An empty Fd with *why when the walk is refused.
    Fd directory(const std::vector<std::string>& names, std::string* where,
                 std::string* why) const {
        std::vector<std::string> done; // the directories walked into, from the top
        std::vector<Fd> open;          // and their descriptors
        std::deque<std::string> todo(names.begin(), names.end());
        int links = 0;
        std::string link, target; // the last link walked, for the message
        auto at = [&](const std::string& name) {
            return done.empty() ? name : joined(done) + "/" + name;
        };
        auto refuse = [&](std::string reason) {
            *why = std::move(reason);
            return Fd();
        };
        auto outside = [&] {
            return refuse("it lies under the link " + text::printable(link) +
                          ", which points outside the directory (to " + text::printable(target) +
                          ")");
        };
        while (!todo.empty()) {
            const auto name = std::move(todo.front());
            todo.pop_front();
            if (name.empty() || name == ".")
                continue;
            if (name == "..") {
                if (done.empty())
                    return outside();
                done.pop_back();
                open.pop_back();
                continue;
            }
            const int cur = open.empty() ? m_root.get() : open.back().get();
            struct stat st {};
            if (::fstatat(cur, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
                if (errno != ENOENT || (::mkdirat(cur, name.c_str(), 0700) != 0 && errno != EEXIST))
                    return refuse(text::printable(at(name)) + ": " + std::strerror(errno));
                st.st_mode = S_IFDIR;
            }
            if (S_ISLNK(st.st_mode)) {
                link = at(name);
                if (++links > kMaxLinks)
                    return refuse("it lies under more than " + std::to_string(kMaxLinks) +
                                  " links in a row (a loop of links, at " + text::printable(link) +
                                  ")");
                const auto t = readLinkAt(cur, name);
                if (!t)
                    return refuse(text::printable(link) + ": " + std::strerror(errno));
                target = *t;
                if (target.empty() || target.front() == '/')
                    return outside();
                const auto parts = text::split(target, '/');
                for (auto it = parts.rbegin(); it != parts.rend(); ++it)
                    todo.emplace_front(*it);
                continue;
            }
            if (!S_ISDIR(st.st_mode))
                return refuse(text::printable(at(name)) + " is " + kindOf(st.st_mode) +
                              ", not a directory");
            Fd next(::openat(cur, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (!next)
                return refuse(text::printable(at(name)) + ": " + std::strerror(errno));
            done.push_back(name);
            open.push_back(std::move(next));
        }
        *where = joined(done);
        return open.empty() ? Fd(::fcntl(m_root.get(), F_DUPFD_CLOEXEC, 0))
                            : std::move(open.back());
    }

private:
    Fd m_root;
};

// What is at `name` in `dir` already, for a refusal.
std::string there(int dir, const std::string& name, const std::string& at) {
    struct stat st {};
    if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        return text::printable(at) + ": " + std::strerror(errno);
    return text::printable(at) + " is there already as " + kindOf(st.st_mode);
}

bool writeAll(int fd, std::string_view data) {
    while (!data.empty()) {
        const auto n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// Lays `bundle` out; on a refusal, *refused is the entry's path.
bool layOut(const FileBundle& bundle, const fs::path& dir, std::string* error,
            std::string* refused) {
    auto fail = [&](const std::string& path, const std::string& why) {
        if (error)
            *error = text::printable(path) + ": refused: " + why;
        if (refused)
            *refused = path;
        return false;
    };
    // The directory itself: made private (mode 0700, whatever the umask), or private already,
    // and not a link to somewhere else.
    std::error_code ec;
    fs::create_directories(dir.parent_path(), ec);
    const bool made = ::mkdir(dir.c_str(), 0700) == 0;
    if (!made && errno != EEXIST)
        return fail(dir.string(), std::strerror(errno));
    Fd root(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!root) {
        struct stat st {};
        const bool link = ::lstat(dir.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
        return fail(dir.string(), link ? std::string("the directory is a link")
                                       : std::string(std::strerror(errno)));
    }
    struct stat st {};
    if (made ? ::fchmod(root.get(), 0700) != 0 : ::fstat(root.get(), &st) != 0)
        return fail(dir.string(), std::strerror(errno));
    if (!made && (st.st_uid != ::geteuid() || (st.st_mode & 077) != 0)) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
        return fail(dir.string(), std::string("the directory is not private to this user (mode ") +
                                      mode + "); it must be 0700 and this user's");
    }
    const Tree tree(std::move(root));

    std::string where, why;
    for (const auto& [path, e] : bundle.entries()) {
        if (!e.ok())
            continue; // a missing file stays missing, and makes no directory either
        if (const auto p = entryPathProblem(path); !p.empty())
            return fail(path, p);
        std::vector<std::string> names;
        for (auto n : text::split(path, '/'))
            names.emplace_back(n);
        if (e.kind == BundleEntry::Kind::Dir) {
            if (!tree.directory(names, &where, &why))
                return fail(path, why);
            // Listed names that nothing below was read from (a tx-0 without xps_cpus) are
            // directories in sysfs and procfs: they are made, so that a listing of the tree
            // names them again.
            for (const auto& name : bundle.list(path)) {
                if (const auto p = entryNameProblem(name); !p.empty())
                    return fail(path, "lists " + p);
                if (bundle.get(path + "/" + name))
                    continue;
                names.push_back(name);
                if (!tree.directory(names, &where, &why))
                    return fail(path, why);
                names.pop_back();
            }
            continue;
        }
        const auto leaf = names.back();
        names.pop_back();
        const auto parent = tree.directory(names, &where, &why);
        if (!parent)
            return fail(path, why);
        const auto at = where.empty() ? leaf : where + "/" + leaf;
        if (e.kind == BundleEntry::Kind::Link) {
            if (const auto p = linkTargetProblem(e.data); !p.empty())
                return fail(path, p);
            if (::symlinkat(e.data.c_str(), parent.get(), leaf.c_str()) == 0)
                continue;
            // The interfaces of one device declare its driver link each: the same link again.
            const int err = errno;
            if (err == EEXIST && readLinkAt(parent.get(), leaf) == e.data)
                continue;
            return fail(path, err == EEXIST ? there(parent.get(), leaf, at) : std::strerror(err));
        }
        Fd f(::openat(parent.get(), leaf.c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600));
        if (!f)
            return fail(path,
                        errno == EEXIST ? there(parent.get(), leaf, at) : std::strerror(errno));
        if (!writeAll(f.get(), e.data))
            return fail(path, std::string("cannot write: ") + std::strerror(errno));
    }
    return true;
}

} // namespace

std::optional<FileBundle> readCapture(std::string_view text, std::string* error, int firstLine) {
    return parseCapture(text, error, firstLine, nullptr);
}

bool materialize(const FileBundle& bundle, const fs::path& dir, std::string* error) {
    return layOut(bundle, dir, error, nullptr);
}

bool layOutCapture(std::string_view text, const fs::path& dir, std::string* error, int firstLine) {
    EntryLines lines;
    const auto bundle = parseCapture(text, error, firstLine, &lines);
    if (!bundle)
        return false;
    std::string refused;
    if (layOut(*bundle, dir, error, &refused))
        return true;
    if (const auto it = lines.find(refused); error && it != lines.end())
        *error = "line " + std::to_string(it->second) + ": " + *error;
    return false;
}

} // namespace coresteer
