// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/line_store.h"

#include <functional>

namespace coresteer::live {

std::size_t LineStore::bytes(const Line& l) {
    auto heap = [](const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; };
    return sizeof(Line) + 16 + heap(l.key) + heap(l.text); // 16: the shared count
}

std::size_t LineStore::Frozen::bytes(const Frozen* before) const {
    std::size_t n = sizeof *this + chunks.capacity() * sizeof chunks.front();
    if (byKey && !(before && before->byKey == byKey))
        n += sizeof *byKey + 16 + byKey->capacity() * sizeof byKey->front();
    for (std::size_t c = 0; c < chunks.size(); ++c) {
        const Chunk* then = before && c < before->chunks.size() ? before->chunks[c].get() : nullptr;
        if (then == chunks[c].get())
            continue;
        n += sizeof(Chunk) + 16; // 16: the shared count
        for (std::size_t i = 0; i < kChunk; ++i) {
            const auto& l = (*chunks[c])[i];
            if (l && !(then && (*then)[i] == l))
                n += LineStore::bytes(*l);
        }
    }
    return n;
}

const LineStore::Line* LineStore::at(std::size_t position) const {
    return position < m_size ? (*m_chunks[position / kChunk])[position % kChunk].get() : nullptr;
}

std::uint64_t LineStore::hash(std::string_view key) {
    return std::hash<std::string_view>{}(key);
}

std::optional<std::size_t> LineStore::find(std::string_view key) const {
    if (!m_slots)
        return std::nullopt;
    const auto& byKey = *m_slots;
    const auto h = hash(key);
    const auto mask = byKey.size() - 1;
    for (auto i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
        const auto s = byKey[i];
        if (s == 0)
            return std::nullopt;
        if (s != kGone && (s >> 32) == (h >> 32)) {
            const auto p = static_cast<std::size_t>(s & 0xffffffffu) - 1;
            if (at(p)->key == key)
                return p;
        }
    }
}

std::vector<std::uint64_t>& LineStore::byKey() {
    if (m_slots.use_count() > 1) // a checkpoint holds it as it is
        m_slots = std::make_shared<std::vector<std::uint64_t>>(*m_slots);
    return *m_slots;
}

void LineStore::index(std::size_t position) {
    auto& byKey = this->byKey();
    const auto h = hash(at(position)->key);
    const auto mask = byKey.size() - 1;
    auto i = static_cast<std::size_t>(h) & mask;
    while (byKey[i] != 0)
        i = (i + 1) & mask;
    byKey[i] = (h & 0xffffffff00000000ull) | (position + 1);
    ++m_taken;
}

void LineStore::rehash(std::size_t lines) {
    std::size_t cap = 16;
    while (cap < 2 * (lines + 1))
        cap *= 2;
    m_slots = std::make_shared<std::vector<std::uint64_t>>(cap, 0);
    m_taken = 0;
    for (std::size_t p = 0; p < m_size; ++p)
        if (at(p))
            index(p);
}

std::shared_ptr<LineStore::Line>& LineStore::slot(std::size_t position) {
    auto& chunk = m_chunks[position / kChunk];
    if (chunk.use_count() > 1) { // a checkpoint holds it as it is
        chunk = std::make_shared<Chunk>(*chunk);
        m_made += sizeof(Chunk) + 16;
    }
    return (*chunk)[position % kChunk];
}

void LineStore::add(Line line) {
    if (m_size % kChunk == 0) {
        m_chunks.push_back(std::make_shared<Chunk>());
        m_made += sizeof(Chunk) + 16;
    }
    m_made += bytes(line);
    slot(m_size) = std::make_shared<Line>(std::move(line));
    ++m_size;
    if (!m_slots || 2 * (m_taken + 1) > m_slots->size())
        rehash(live());
    else
        index(m_size - 1);
}

LineStore::Line& LineStore::edit(std::size_t position) {
    auto& l = slot(position);
    if (l.use_count() > 1) {
        l = std::make_shared<Line>(*l);
        m_made += bytes(*l);
    }
    return *l;
}

void LineStore::erase(std::size_t position) {
    const auto* line = at(position);
    if (!line)
        return;
    auto& byKey = this->byKey();
    const auto h = hash(line->key);
    const auto mask = byKey.size() - 1;
    for (auto i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask)
        if (byKey[i] != kGone && (byKey[i] & 0xffffffffu) == position + 1) {
            byKey[i] = kGone; // still taken: the keys after it are found past it
            break;
        }
    slot(position).reset();
    ++m_gone;
}

void LineStore::clear() {
    const auto made = m_made;
    *this = LineStore();
    m_made = made;
}

bool LineStore::compact() {
    if (m_gone < 64 || m_gone * 2 < m_size)
        return false;
    std::vector<std::shared_ptr<Line>> kept;
    kept.reserve(live());
    for (std::size_t p = 0; p < m_size; ++p)
        if (at(p))
            kept.push_back((*m_chunks[p / kChunk])[p % kChunk]);
    m_chunks.clear();
    m_size = m_gone = 0;
    for (auto& l : kept) {
        if (m_size % kChunk == 0) {
            m_chunks.push_back(std::make_shared<Chunk>());
            m_made += sizeof(Chunk) + 16;
        }
        (*m_chunks.back())[m_size % kChunk] = std::move(l);
        ++m_size;
    }
    rehash(m_size);
    return true;
}

} // namespace coresteer::live
