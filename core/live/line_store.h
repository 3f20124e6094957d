// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The lines of one of the sampler's files as the decoder keeps them (stream.h): in the order
// first seen, found by key, and shared with a recording's checkpoints. The lines sit in chunks
// of 64; a checkpoint takes the chunks (a pointer each), and a chunk or a line that a
// checkpoint holds is copied before it changes, so a checkpoint costs what changed since the
// one before it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coresteer::live {

class LineStore {
public:
    struct Line {
        std::string key;
        std::string text;       // the fields, each followed by one blank but the last
        std::size_t fields = 0; // how many ("" is no field, or one empty one)
    };
    static constexpr std::size_t kChunk = 64;
    // A chunk or a line held by more than one owner (use_count() > 1) is never changed: it is
    // copied first.
    using Chunk = std::array<std::shared_ptr<Line>, kChunk>;

    // The lines as they are, to start again from; shares everything with the store (the
    // index by key too: it changes only when keys come or go).
    struct Frozen {
        std::vector<std::shared_ptr<Chunk>> chunks;
        std::size_t size = 0, gone = 0, taken = 0;
        std::shared_ptr<std::vector<std::uint64_t>> byKey;
        // Heap bytes it holds, but for the chunks and lines it shares with `before` (an
        // earlier state of the same store) in the same places.
        std::size_t bytes(const Frozen* before) const;
    };

    LineStore() = default;
    explicit LineStore(const Frozen& f)
        : m_chunks(f.chunks), m_size(f.size), m_gone(f.gone), m_slots(f.byKey), m_taken(f.taken) {}
    Frozen freeze() const { return {m_chunks, m_size, m_gone, m_taken, m_slots}; }

    // Positions in use (some of them may be lines that went), and the lines there are.
    std::size_t size() const { return m_size; }
    std::size_t live() const { return m_size - m_gone; }
    // nullptr where a line went.
    const Line* at(std::size_t position) const;
    std::optional<std::size_t> find(std::string_view key) const;
    // A line of a new key, at the end.
    void add(Line line);
    // The line at `position`, to change (its key stays).
    Line& edit(std::size_t position);
    void erase(std::size_t position);
    void clear();
    // When more than half the positions are lines that went, the rest move up: true then.
    bool compact();
    // Bytes of lines and chunks made so far (new ones, and copies of shared ones): what a
    // checkpoint taken now holds that the one before it does not, at most.
    std::uint64_t made() const { return m_made; }

private:
    std::shared_ptr<Line>& slot(std::size_t position);
    std::vector<std::uint64_t>& byKey(); // the index, to change
    void index(std::size_t position);
    void rehash(std::size_t capacity);
    static std::uint64_t hash(std::string_view key);

    static std::size_t bytes(const Line& l);

    std::vector<std::shared_ptr<Chunk>> m_chunks;
    std::size_t m_size = 0, m_gone = 0;
    std::uint64_t m_made = 0;
    // Open addressing by key: (hash's high half << 32) | (position + 1); 0 is free, kGone a
    // key that went. At most half full.
    static constexpr std::uint64_t kGone = ~0ull;
    std::shared_ptr<std::vector<std::uint64_t>> m_slots;
    std::size_t m_taken = 0;
};

} // namespace coresteer::live
