/* The solver's search, compiled: search.py's depth-first search, move for move.
 *
 * search.py is the reference. This file searches the same positions in the
 * same order, keeps the same tables (positions proved lost, positions that
 * failed in this round with something cut short) and counts the same nodes,
 * so for a node budget both give the same answer, the same line and the same
 * node count (tests/solver/test_core.py checks it). Python drives the rounds
 * (rounds.py) and turns the line into notation; only a round runs here.
 *
 * Positions are keyed exactly, never by a hash alone: a collision in the lost
 * table would be a false proof. A key is four 64-bit words:
 *   k0  the waste's bit mask, bits 0-63
 *   k1  the waste's bits 64-95 (bits 0-31), `drawn` (bits 32-38); bits 39-63
 *       hold the entry's state (lost, or tried in round r) and are not key
 *   k2  the reserve, sorted, 6 bits a card, 63 for each empty place
 *   k3  the foundations (bits 0-31) and the pass's number (bits 32-63)
 * A pass (one fixed card sequence and the redeals left after it) gets its
 * number the first time it is met, as in search.py. Foundations are never 0
 * (the AH foundation's top rank is at least 1), so k3 == 0 marks a free slot.
 *
 * The table has a memory cap: it doubles while it may, and at the cap a new
 * entry is dropped (or takes the place of one tried in an earlier round). A
 * dropped entry only costs search, never soundness: the position is searched
 * again when met again. Passes are kept for the whole solve; when they would
 * pass the cap too, the round ends as out of budget (`unknown`).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

typedef unsigned __int128 u128;

/* Steps of the line, as in search.py; a non-negative step plays that reserve card. */
#define DRAW (-1)
#define REDEAL (-2)
#define WASTE_UP (-3)
#define WASTE_DOWN (-4)

/* What a node or round comes back with: search.py's return values and exceptions. */
#define R_FAIL 0
#define R_WIN 1
#define R_OUT 2       /* OutOfBudget */
#define R_CAPPED 3    /* _Capped */
#define R_ABANDONED 4 /* _Abandoned */

#define SPREAD 4
#define CHECK_CLOCK_EVERY 1024
#define NO_CAP ((int64_t)1 << 62)
#define MAX_CARDS 128
#define MAX_SLOTS 8
#define EMPTY_CARD 63

#define META_SHIFT 39
#define KEY1_MASK ((((uint64_t)1) << META_SHIFT) - 1)
#define LOST_FLAG (((uint64_t)1) << META_SHIFT)
#define ROUND_SHIFT (META_SHIFT + 1)

static const uint32_t WON_FOUNDATIONS = 0xCCCCCCCCu; /* 12 in every nibble */

/* ---------------------------------------------------------------- MT19937 */
/* Python's random.Random, for the shaken rounds: same seed, same numbers. */

typedef struct {
    uint32_t mt[624];
    int index;
} MT;

static void mt_init_genrand(MT *m, uint32_t s) {
    m->mt[0] = s;
    for (int i = 1; i < 624; i++)
        m->mt[i] = 1812433253u * (m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) + (uint32_t)i;
    m->index = 624;
}

static void mt_seed(MT *m, uint64_t seed) {
    uint32_t key[2];
    int keylen = 0;
    /* random.seed(n): the 32-bit words of abs(n), least significant first. */
    key[keylen++] = (uint32_t)seed;
    if (seed >> 32) key[keylen++] = (uint32_t)(seed >> 32);
    mt_init_genrand(m, 19650218u);
    int i = 1, j = 0;
    for (int k = 624 > keylen ? 624 : keylen; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1664525u)) + key[j] +
                   (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            m->mt[0] = m->mt[623];
            i = 1;
        }
        if (j >= keylen) j = 0;
    }
    for (int k = 623; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            m->mt[0] = m->mt[623];
            i = 1;
        }
    }
    m->mt[0] = 0x80000000u;
}

static uint32_t mt_next(MT *m) {
    static const uint32_t mag01[2] = {0u, 0x9908b0dfu};
    uint32_t y;
    if (m->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (m->mt[kk] & 0x80000000u) | (m->mt[kk + 1] & 0x7fffffffu);
            m->mt[kk] = m->mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; kk < 623; kk++) {
            y = (m->mt[kk] & 0x80000000u) | (m->mt[kk + 1] & 0x7fffffffu);
            m->mt[kk] = m->mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (m->mt[623] & 0x80000000u) | (m->mt[0] & 0x7fffffffu);
        m->mt[623] = m->mt[396] ^ (y >> 1) ^ mag01[y & 1u];
        m->index = 0;
    }
    y = m->mt[m->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

static double mt_random(MT *m) {
    uint32_t a = mt_next(m) >> 5, b = mt_next(m) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* ---------------------------------------------------------------- passes */

typedef struct {
    u128 of_suit[4]; /* where each suit's cards lie in the sequence */
    /* pysolfc: where the pass's cards lie in the first pass's sequence (`cards
     * + length` holds each one's place there), as a mask (search.py, CANONICAL KEYS) */
    u128 orig_mask;
    uint64_t hash;
    uint32_t id;
    uint8_t length;
    uint8_t redeals_left;
    uint8_t cards[];
} Pass;

/* ---------------------------------------------------------------- reserve */

typedef struct {
    uint8_t n;
    uint8_t c[MAX_SLOTS];
} Reserve;

static inline Reserve reserve_without(const Reserve *r, int i) {
    Reserve out;
    out.n = 0;
    for (int j = 0; j < r->n; j++)
        if (j != i) out.c[out.n++] = r->c[j];
    return out;
}

static inline Reserve reserve_with(const Reserve *r, int card) {
    Reserve out;
    int j = 0;
    out.n = 0;
    while (j < r->n && r->c[j] < card) out.c[out.n++] = r->c[j++];
    out.c[out.n++] = (uint8_t)card;
    while (j < r->n) out.c[out.n++] = r->c[j++];
    return out;
}

static inline uint64_t reserve_key(const Reserve *r) {
    uint64_t k = 0;
    for (int j = 0; j < MAX_SLOTS; j++)
        k |= (uint64_t)(j < r->n ? r->c[j] : EMPTY_CARD) << (6 * j);
    return k;
}

/* ---------------------------------------------------------------- the table */

typedef struct {
    uint64_t k[4];
} Entry;

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t key_hash(const uint64_t *k) {
    uint64_t h = mix64(k[0] ^ 0x9e3779b97f4a7c15ULL);
    h = mix64(h ^ (k[1] & KEY1_MASK));
    h = mix64(h ^ k[2]);
    return mix64(h ^ k[3]);
}

/* ---------------------------------------------------------------- the search */

/* A pass's start met in counting mode: the pass, the reserve and foundations
 * it starts with, and where the line to it lies in `kept_steps`. */
typedef struct {
    uint32_t pass_id;
    uint32_t foundations;
    Reserve reserve;
    size_t steps_at;
    Py_ssize_t steps_len;
} Kept;

typedef struct {
    PyObject_HEAD
    /* the start */
    Pass *first;
    int start_drawn;
    u128 start_waste;
    Reserve start_reserve;
    uint32_t start_foundations;
    int start_redeals_left;
    int slots, auto_refill, shuffled_redeal;
    int canonical; /* keys in the first pass's places (search.py, CANONICAL KEYS) */
    PyObject *redeal_order; /* redeal_order(redeal, length) -> tuple of ints */
    /* the budget */
    int64_t max_nodes, nodes, cuts, cap_until, limit;
    int has_deadline, cpu_clock;
    double deadline, grow_until;
    /* the round */
    int64_t caps[2]; /* nodes allowed below a redeal, by redeals left after it; -1: none */
    int shaking;
    double shake_share;
    MT shake;
    uint32_t round;
    int64_t fewest_left;
    int first_try;
    /* the line */
    int16_t *line;
    Py_ssize_t line_len, line_cap;
    /* the line to the position with the most cards up met so far, in any round */
    int16_t *furthest;
    Py_ssize_t furthest_len, furthest_cap;
    int most_up;
    /* the position table, and a filter of one bit per hash of every key ever
     * put there: a clear bit proves a key absent without a probe of the table */
    Entry *table;
    uint64_t table_mask, table_used;
    uint64_t *filter;
    size_t filter_bytes;
    int filter_shift;
    size_t memory_cap, pass_bytes;
    int64_t dropped;
    int out_of_memory;
    /* the passes */
    Pass **passes;
    uint32_t n_passes, passes_cap;
    uint32_t *pass_index; /* open addressing over pass numbers + 1 */
    uint64_t pass_index_mask;
    /* redeal orders met, by redeal (1, 2) and length */
    uint8_t *orders[3][MAX_CARDS];
    int failed; /* a Python error is set */
    /* counting mode: the pass after redeal `count_at` (1 or 2; 0: off) is
     * counted, not searched; with `keep_starts`, up to that many of them are
     * kept with the line to them (`starts()`), for a search stage by stage */
    int count_at;
    int64_t last_starts;
    Py_ssize_t keep_starts;
    Kept *kept;
    Py_ssize_t n_kept;
    int16_t *kept_steps;
    size_t kept_steps_len, kept_steps_cap;
    int running; /* a round is under way, without the GIL: hands off */
} Search;

/* Python's time.monotonic(), or time.thread_time() with the CPU clock. */
static double now_clock(int cpu_clock) {
    struct timespec ts;
    clock_gettime(cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int bit_length128(u128 x) {
    uint64_t hi = (uint64_t)(x >> 64);
    if (hi) return 128 - __builtin_clzll(hi);
    uint64_t lo = (uint64_t)x;
    return lo ? 64 - __builtin_clzll(lo) : 0;
}

static inline u128 bit128(int i) { return ((u128)1) << i; }

static inline uint32_t play(int card, uint32_t foundations) {
    int suit = card / 13, need = card % 13; /* rank - 1 */
    int hi_shift = 8 * suit + 4;
    if (((foundations >> hi_shift) & 15u) == (uint32_t)need) return foundations + (1u << hi_shift);
    return foundations + (1u << (8 * suit));
}

static inline int cards_left(uint32_t foundations) {
    int played = -1;
    while (foundations) {
        played += foundations & 15u;
        foundations >>= 4;
    }
    return 95 - played;
}

static inline void takers(uint32_t foundations, uint64_t *takes, uint64_t *lower) {
    uint64_t t = 0, l = 0;
    for (int suit = 0; suit < 4; suit++) {
        int lo = (foundations >> (8 * suit)) & 15, hi = (foundations >> (8 * suit + 4)) & 15;
        if (lo < 12) l |= (uint64_t)1 << (13 * suit + lo);
        if (hi < 12) t |= (uint64_t)1 << (13 * suit + hi);
    }
    *takes = t | l;
    *lower = l;
}

/* relax.py's suit_stuck, on the suit's waste cards `bits` (top first). */
static int suit_stuck(int suit, const Pass *p, u128 bits, uint32_t foundations) {
    int shift = 8 * suit;
    int lo = (foundations >> shift) & 15, hi = (foundations >> (shift + 4)) & 15;
    int base = 13 * suit - 1;
    int ranks[MAX_CARDS], n = 0, count[14] = {0}, free_[13];
    while (bits) {
        int pos = bit_length128(bits) - 1;
        bits ^= bit128(pos);
        int rank = p->cards[pos] - base;
        ranks[n++] = rank;
        count[rank]++;
    }
    for (int rank = 0; rank < 13; rank++)
        free_[rank] = 2 - (hi >= rank) - (lo >= rank) - count[rank];
    for (int i = 0; i < n; i++) {
        int rank = ranks[i], need = rank - 1;
        if (hi == need) {
            hi = rank;
            continue;
        }
        if (lo == need) {
            lo = rank;
            continue;
        }
        int start = hi < need ? hi : lo;
        for (int r = start + 1; r < rank; r++) {
            if (!free_[r]) return 1;
            free_[r]--;
        }
        if (start == hi)
            hi = rank;
        else
            lo = rank;
    }
    return 0;
}

static inline int stuck(int suit, const Pass *p, u128 waste, uint32_t foundations) {
    u128 bits = waste & p->of_suit[suit];
    return bits ? suit_stuck(suit, p, bits, foundations) : 0;
}

/* relax.py's slots_crowded: in the last pysolfc pass, more cards locked into
 * the slots at once than there are slots (the proof is in relax.py). */
#define NEVER 1000
static int slots_crowded(const Pass *p, u128 waste, const Reserve *reserve, uint32_t foundations,
                         int slots) {
    int upper[52], locked[52], delta[MAX_CARDS + 1], positions[MAX_CARDS], n = 0, end = 0;
    uint8_t seen[52] = {0};
    for (int c = 0; c < 52; c++) upper[c] = NEVER;
    while (waste) {
        int pos = (uint64_t)waste ? __builtin_ctzll((uint64_t)waste)
                                  : 64 + __builtin_ctzll((uint64_t)(waste >> 64));
        waste ^= bit128(pos);
        int card = p->cards[pos];
        if (seen[card]) upper[card] = pos;
        seen[card] = 1;
        positions[n++] = pos;
        end = pos + 1;
    }
    for (int suit = 0; suit < 4; suit++) {
        int hi = (foundations >> (8 * suit + 4)) & 15, lowest = NEVER;
        for (int rank = 1; rank <= hi && rank < 13; rank++) locked[13 * suit + rank - 1] = NEVER;
        for (int rank = hi + 1; rank < 13; rank++) {
            int card = 13 * suit + rank - 1;
            locked[card] = lowest;
            if (upper[card] < lowest) lowest = upper[card];
        }
    }
    memset(delta, 0, (size_t)(end + 1) * sizeof(int));
    int any = 0;
    for (int i = 0; i < n; i++) {
        int u = locked[p->cards[positions[i]]];
        if (u < positions[i]) {
            delta[u]++;
            delta[positions[i]]--;
            any = 1;
        }
    }
    if (!any) return 0;
    for (int j = 0; j < reserve->n; j++) {
        int u = locked[reserve->c[j]];
        if (u < NEVER) delta[u]++;
    }
    int crowd = 0;
    for (int u = 0; u <= end; u++) {
        crowd += delta[u];
        if (crowd > slots) return 1;
    }
    return 0;
}

/* relax.py's draw_crowds: the bound asked only of a draw that lands locked. */
static int draw_crowds(const Pass *p, int drawn, u128 waste, const Reserve *reserve,
                       uint32_t foundations, int slots) {
    int card = p->cards[drawn], suit = card / 13, rank = card % 13 + 1;
    int hi = (foundations >> (8 * suit + 4)) & 15;
    if (rank <= hi + 1) return 0;
    uint8_t count[13] = {0};
    u128 bits = waste & p->of_suit[suit];
    int pair = 0;
    while (bits) {
        int pos = (uint64_t)bits ? __builtin_ctzll((uint64_t)bits)
                                 : 64 + __builtin_ctzll((uint64_t)(bits >> 64));
        bits ^= bit128(pos);
        int r = p->cards[pos] % 13 + 1;
        if (r > hi && r < rank && ++count[r] == 2) {
            pair = 1;
            break;
        }
    }
    return pair && slots_crowded(p, waste | bit128(drawn), reserve, foundations, slots);
}

static int line_push(Search *s, int step) {
    if (s->line_len == s->line_cap) {
        Py_ssize_t cap = s->line_cap ? 2 * s->line_cap : 512;
        int16_t *grown = PyMem_RawRealloc(s->line, cap * sizeof(int16_t));
        if (!grown) {
            s->failed = 2; /* no memory: raised once the GIL is back */
            return -1;
        }
        s->line = grown;
        s->line_cap = cap;
    }
    s->line[s->line_len++] = (int16_t)step;
    return 0;
}

/* The line so far is the furthest yet: `up` cards on the foundations. -1: no memory. */
static int note_furthest(Search *s, int up) {
    if (s->line_len > s->furthest_cap) {
        Py_ssize_t cap = s->furthest_cap ? s->furthest_cap : 512;
        while (cap < s->line_len) cap *= 2;
        int16_t *grown = PyMem_RawRealloc(s->furthest, cap * sizeof(int16_t));
        if (!grown) {
            s->failed = 2;
            return -1;
        }
        s->furthest = grown;
        s->furthest_cap = cap;
    }
    memcpy(s->furthest, s->line, (size_t)s->line_len * sizeof(int16_t));
    s->furthest_len = s->line_len;
    s->most_up = up;
    return 0;
}

/* -- the position table -- */

static size_t table_bytes(uint64_t slots) { return (size_t)slots * sizeof(Entry); }

/* Zeroed memory for a table. Large tables are mapped on their own and asked
 * for huge pages: the table is read at random, once a position, and with 4 KiB
 * pages nearly every read also misses the TLB (a third of the time, measured). */
static Entry *table_alloc(uint64_t slots) {
    size_t bytes = table_bytes(slots);
    if (bytes < ((size_t)2 << 20)) return calloc(slots, sizeof(Entry));
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    return mem;
}

static void table_free(Entry *table, uint64_t slots) {
    if (!table) return;
    size_t bytes = table_bytes(slots);
    if (bytes < ((size_t)2 << 20))
        free(table);
    else
        munmap(table, bytes);
}

/* The filter: 1 MiB at most, to stay in a core's L2 cache (0.25 to 16 MiB
 * tried: 0.5 to 2 did best, 16 worst), and a sixteenth of the memory cap at
 * most, counted against the cap. */
#define FILTER_MOST ((size_t)1 << 20)

static int filter_alloc(Search *s) {
    size_t bytes = 8;
    while (2 * bytes <= FILTER_MOST && 2 * bytes <= s->memory_cap / 16) bytes *= 2;
    int bits_log2 = 3;
    while (((size_t)1 << bits_log2) < 8 * bytes) bits_log2++;
    if (bytes < ((size_t)2 << 20)) {
        s->filter = calloc(bytes / 8, sizeof(uint64_t));
    } else {
        void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        s->filter = mem == MAP_FAILED ? NULL : mem;
#ifdef MADV_HUGEPAGE
        if (s->filter) madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    }
    if (!s->filter) return -1;
    s->filter_bytes = bytes;
    s->filter_shift = 64 - bits_log2;
    return 0;
}

static void filter_free(Search *s) {
    if (s->filter) {
        if (s->filter_bytes < ((size_t)2 << 20))
            free(s->filter);
        else
            munmap(s->filter, s->filter_bytes);
    }
    s->filter = NULL;
    s->filter_bytes = 0;
}

/* Is the key whose hash is h perhaps in the table? No means surely not. */
static inline int filter_may_hold(const Search *s, uint64_t h) {
    uint64_t bit = h >> s->filter_shift;
    return (s->filter[bit >> 6] >> (bit & 63)) & 1;
}

static inline void filter_add(Search *s, uint64_t h) {
    uint64_t bit = h >> s->filter_shift;
    s->filter[bit >> 6] |= (uint64_t)1 << (bit & 63);
}

/* The slot holding key k (whose hash is h), or NULL. Most positions are new:
 * the filter answers for them from a few MB instead of a probe of the table. */
static inline Entry *table_find_hashed(Search *s, const uint64_t *k, uint64_t h) {
    if (!s->table || !filter_may_hold(s, h)) return NULL;
    uint64_t i = h & s->table_mask;
    for (;;) {
        Entry *e = &s->table[i];
        if (!e->k[3]) return NULL;
        if (e->k[3] == k[3] && e->k[0] == k[0] && e->k[2] == k[2] &&
            (e->k[1] & KEY1_MASK) == k[1])
            return e;
        i = (i + 1) & s->table_mask;
    }
}

static inline Entry *table_find(Search *s, const uint64_t *k) {
    return table_find_hashed(s, k, key_hash(k));
}

static inline int entry_stale(const Search *s, const Entry *e) {
    return !(e->k[1] & LOST_FLAG) && (uint32_t)(e->k[1] >> ROUND_SHIFT) != s->round;
}

/* Doubles the table, leaving out entries tried in earlier rounds. 0 when the cap forbids it. */
static int table_grow(Search *s) {
    uint64_t slots = s->table ? 2 * (s->table_mask + 1) : (1u << 16);
    /* The first table takes at most half the cap, and never less than 256 slots. */
    while (!s->table && slots > 256 && table_bytes(slots) > s->memory_cap / 2) slots /= 2;
    if (s->table && table_bytes(slots) + s->pass_bytes + s->filter_bytes > s->memory_cap) return 0;
    /* Doubling a large table takes a good part of a second, past any deadline
     * near: in the second half of a time budget the table stays as it is
     * (entries are dropped at the cap instead, which only costs search). */
    if (s->table && s->has_deadline && table_bytes(slots) >= ((size_t)32 << 20) &&
        now_clock(s->cpu_clock) > s->grow_until)
        return 0;
    Entry *fresh = table_alloc(slots);
    if (!fresh) return 0;
    uint64_t mask = slots - 1, used = 0;
    if (s->table) {
        for (uint64_t j = 0; j <= s->table_mask; j++) {
            Entry *e = &s->table[j];
            if (!e->k[3] || entry_stale(s, e)) continue;
            uint64_t i = key_hash(e->k) & mask;
            while (fresh[i].k[3]) i = (i + 1) & mask;
            fresh[i] = *e;
            used++;
        }
        table_free(s->table, s->table_mask + 1);
    }
    s->table = fresh;
    s->table_mask = mask;
    s->table_used = used;
    return 1;
}

static void table_put_hashed(Search *s, const uint64_t *k, uint64_t meta, uint64_t h) {
    if (!s->table || 4 * (s->table_used + 1) > 3 * (s->table_mask + 1)) table_grow(s);
    if (!s->table) {
        s->dropped++;
        return;
    }
    filter_add(s, h);
    uint64_t i = h & s->table_mask;
    Entry *reuse = NULL;
    for (;;) {
        Entry *e = &s->table[i];
        if (!e->k[3]) break;
        if (e->k[3] == k[3] && e->k[0] == k[0] && e->k[2] == k[2] &&
            (e->k[1] & KEY1_MASK) == k[1]) {
            e->k[1] = k[1] | meta;
            return;
        }
        if (!reuse && entry_stale(s, e)) reuse = e;
        i = (i + 1) & s->table_mask;
    }
    Entry *slot = reuse;
    if (!slot) {
        /* At the cap, keep a free slot in ten so that probes still end. */
        if (10 * (s->table_used + 1) > 9 * (s->table_mask + 1)) {
            s->dropped++;
            return;
        }
        slot = &s->table[i];
        s->table_used++;
    }
    slot->k[0] = k[0];
    slot->k[1] = k[1] | meta;
    slot->k[2] = k[2];
    slot->k[3] = k[3];
}

static void table_put(Search *s, const uint64_t *k, uint64_t meta) {
    table_put_hashed(s, k, meta, key_hash(k));
}

/* -- passes -- */

static uint64_t pass_hash(int redeals_left, const uint8_t *cards, int length) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)(redeals_left * 131 + length);
    for (int i = 0; i < length; i++) h = (h ^ cards[i]) * 1099511628211ULL;
    return mix64(h);
}

static int pass_index_grow(Search *s) {
    uint64_t slots = s->pass_index ? 2 * (s->pass_index_mask + 1) : 1024;
    uint32_t *fresh = calloc(slots, sizeof(uint32_t));
    if (!fresh) return -1;
    for (uint32_t id = 0; id < s->n_passes; id++) {
        uint64_t i = s->passes[id]->hash & (slots - 1);
        while (fresh[i]) i = (i + 1) & (slots - 1);
        fresh[i] = id + 1;
    }
    free(s->pass_index);
    s->pass_bytes += (slots - (s->pass_index ? s->pass_index_mask + 1 : 0)) * sizeof(uint32_t);
    s->pass_index = fresh;
    s->pass_index_mask = slots - 1;
    return 0;
}

/* The pass (redeals_left, cards), numbered the first time it is met. NULL: out of memory. */
static Pass *get_pass(Search *s, int redeals_left, const uint8_t *cards, const uint8_t *orig,
                      int length) {
    uint64_t h = pass_hash(redeals_left, cards, length);
    if (s->pass_index) {
        uint64_t i = h & s->pass_index_mask;
        while (s->pass_index[i]) {
            Pass *p = s->passes[s->pass_index[i] - 1];
            if (p->hash == h && p->length == length && p->redeals_left == redeals_left &&
                !memcmp(p->cards, cards, length))
                return p;
            i = (i + 1) & s->pass_index_mask;
        }
    }
    size_t size = sizeof(Pass) + 2 * (size_t)length;
    if (s->pass_bytes + size + sizeof(Pass *) + table_bytes(s->table_mask + 1) > s->memory_cap) {
        s->out_of_memory = 1;
        return NULL;
    }
    if (!s->pass_index || 2 * (s->n_passes + 1) > s->pass_index_mask + 1) {
        if (pass_index_grow(s) < 0) goto nomem;
    }
    if (s->n_passes == s->passes_cap) {
        uint32_t cap = s->passes_cap ? 2 * s->passes_cap : 256;
        Pass **grown = realloc(s->passes, cap * sizeof(Pass *));
        if (!grown) goto nomem;
        s->pass_bytes += (cap - s->passes_cap) * sizeof(Pass *);
        s->passes = grown;
        s->passes_cap = cap;
    }
    Pass *p = malloc(size);
    if (!p) goto nomem;
    memset(p, 0, sizeof(Pass));
    p->hash = h;
    p->id = s->n_passes;
    p->length = (uint8_t)length;
    p->redeals_left = (uint8_t)redeals_left;
    memcpy(p->cards, cards, length);
    for (int i = 0; i < length; i++) {
        p->of_suit[cards[i] / 13] |= bit128(i);
        /* A pass met again keeps the places it was first met with: any places
         * that read its cards in the first pass give a key that fixes the position. */
        uint8_t at = orig ? orig[i] : (uint8_t)i;
        p->cards[length + i] = at;
        p->orig_mask |= bit128(at);
    }
    s->passes[s->n_passes++] = p;
    s->pass_bytes += size;
    uint64_t i = h & s->pass_index_mask;
    while (s->pass_index[i]) i = (i + 1) & s->pass_index_mask;
    s->pass_index[i] = p->id + 1;
    return p;
nomem:
    s->out_of_memory = 1;
    return NULL;
}

/* rounds.py's redeal_order(seed, redeal, length), asked of Python once per redeal and length.
 * The round runs without the GIL: it is taken back for the call. */
static uint8_t *redeal_order_call(Search *s, int redeal, int length);

static const uint8_t *redeal_order(Search *s, int redeal, int length) {
    uint8_t *known = s->orders[redeal][length];
    if (known) return known;
    PyGILState_STATE gil = PyGILState_Ensure();
    known = redeal_order_call(s, redeal, length);
    PyGILState_Release(gil);
    return known;
}

static uint8_t *redeal_order_call(Search *s, int redeal, int length) {
    uint8_t *known;
    PyObject *got = PyObject_CallFunction(s->redeal_order, "ii", redeal, length);
    if (!got) goto fail;
    PyObject *seq = PySequence_Fast(got, "redeal_order must give a sequence");
    Py_DECREF(got);
    if (!seq) goto fail;
    if (PySequence_Fast_GET_SIZE(seq) != length) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "redeal_order gave the wrong length");
        goto fail;
    }
    known = PyMem_RawMalloc(length ? length : 1);
    if (!known) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        goto fail;
    }
    for (int j = 0; j < length; j++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, j));
        if (v < 0 || v >= length) {
            Py_DECREF(seq);
            PyMem_RawFree(known);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad redeal order");
            goto fail;
        }
        known[j] = (uint8_t)v;
    }
    Py_DECREF(seq);
    s->orders[redeal][length] = known;
    return known;
fail:
    s->failed = 1;
    return NULL;
}

static int node(Search *s, Pass *p, int drawn, u128 waste, u128 rest, Reserve reserve,
                uint32_t foundations, int redeals_left);

/* Where the cards still in the stock or on the waste lay in the first pass
 * (pysolfc): kept along the search, which changes it only when a waste card
 * leaves the waste, and worked out here at a round's start and for counting. */
static u128 rest_of(const Pass *p, int drawn, u128 waste) {
    const uint8_t *orig = p->cards + p->length;
    u128 rest = drawn < p->length ? p->orig_mask & ~(bit128(orig[drawn]) - 1) : 0;
    uint64_t lo = (uint64_t)waste, hi = (uint64_t)(waste >> 64);
    while (lo) {
        rest |= bit128(orig[__builtin_ctzll(lo)]);
        lo &= lo - 1;
    }
    while (hi) {
        rest |= bit128(orig[64 + __builtin_ctzll(hi)]);
        hi &= hi - 1;
    }
    return rest;
}

/* The first pass's place of the waste card at `pos` of pass p. */
static inline u128 orig_bit(const Pass *p, int pos) { return bit128(p->cards[p->length + pos]); }

/* The position's key. In `sultan` the pass's number and places in it; in
 * `pysolfc` (`canonical`) `rest` (rest_of), where the stock begins in the
 * first pass, and the redeals left: the same position reached in two passes
 * is one key (search.py, CANONICAL KEYS). */
static inline void position_key(const Search *s, const Pass *p, int drawn, u128 waste, u128 rest,
                                const Reserve *reserve, uint32_t foundations, int redeals_left,
                                uint64_t *k) {
    k[2] = reserve_key(reserve);
    if (!s->canonical) {
        k[0] = (uint64_t)waste;
        k[1] = (uint64_t)(waste >> 64) | ((uint64_t)drawn << 32);
        k[3] = (uint64_t)foundations | ((uint64_t)p->id << 32);
        return;
    }
    int at = drawn < p->length ? p->cards[p->length + drawn] : s->first->length;
    k[0] = (uint64_t)rest;
    k[1] = (uint64_t)(rest >> 64) | ((uint64_t)at << 32);
    k[3] = (uint64_t)foundations | ((uint64_t)redeals_left << 32);
}

static int worth_a_try(Search *s, uint32_t foundations, int redeals_left) {
    if (redeals_left == 2) {
        s->first_try = 1;
        return R_WIN; /* "yes" */
    }
    if (redeals_left != 1 || !s->shuffled_redeal) return R_WIN;
    int64_t left = cards_left(foundations);
    int first = s->first_try;
    s->first_try = 0;
    if (left < s->fewest_left)
        s->fewest_left = left;
    else if (left > s->fewest_left + SPREAD) {
        s->cuts++;
        return first ? R_ABANDONED : R_FAIL;
    }
    return R_WIN;
}

/* Keep a counted start and the line to it (the redeal included). -1: no memory. */
static int keep_start(Search *s, const Pass *after, Reserve reserve, uint32_t foundations) {
    if (!s->kept) {
        s->kept = PyMem_RawMalloc((size_t)s->keep_starts * sizeof(Kept));
        if (!s->kept) goto no_memory;
    }
    size_t need = s->kept_steps_len + (size_t)s->line_len;
    if (need > s->kept_steps_cap) {
        size_t cap = s->kept_steps_cap ? s->kept_steps_cap : 1 << 16;
        while (cap < need) cap *= 2;
        int16_t *grown = PyMem_RawRealloc(s->kept_steps, cap * sizeof(int16_t));
        if (!grown) goto no_memory;
        s->kept_steps = grown;
        s->kept_steps_cap = cap;
    }
    memcpy(s->kept_steps + s->kept_steps_len, s->line, (size_t)s->line_len * sizeof(int16_t));
    Kept *k = &s->kept[s->n_kept++];
    k->pass_id = after->id;
    k->foundations = foundations;
    k->reserve = reserve;
    k->steps_at = s->kept_steps_len;
    k->steps_len = s->line_len;
    s->kept_steps_len = need;
    return 0;
no_memory:
    s->failed = 2;
    return -1;
}

static int redeal(Search *s, Pass *p, int drawn, u128 waste, u128 rest, Reserve reserve,
                  uint32_t foundations, int redeals_left) {
    int64_t cap = s->caps[redeals_left - 1];
    if (cap >= 0) {
        int worth = worth_a_try(s, foundations, redeals_left);
        if (worth != R_WIN) return worth;
    }
    uint8_t order[MAX_CARDS], shuffled[MAX_CARDS], orig[MAX_CARDS];
    int n = 0;
    for (int i = 0; i < drawn; i++)
        if ((waste >> i) & 1) {
            orig[n] = p->cards[p->length + i];
            order[n++] = p->cards[i];
        }
    const uint8_t *cards = order;
    if (s->shuffled_redeal) {
        const uint8_t *perm = redeal_order(s, 3 - redeals_left, n);
        if (!perm) return R_OUT;
        for (int j = 0; j < n; j++) shuffled[j] = order[perm[j]];
        cards = shuffled;
    }
    Pass *after = get_pass(s, redeals_left - 1, cards, s->shuffled_redeal ? NULL : orig, n);
    if (!after) return R_OUT;
    if (s->count_at && 3 - redeals_left == s->count_at) {
        /* Count the pass's start once, as a position the table knows. */
        uint64_t k[4];
        position_key(s, after, 0, 0, rest_of(after, 0, 0), &reserve, foundations, redeals_left - 1,
                     k);
        if (!table_find(s, k)) {
            s->last_starts++;
            table_put(s, k, LOST_FLAG);
            if (s->n_kept < s->keep_starts && keep_start(s, after, reserve, foundations) < 0)
                return R_OUT;
        }
        return R_FAIL;
    }
    /* The same cards remain, but read by `after`'s own places: a pass met
     * again keeps the places it was first met with, which may differ from
     * this line's where two copies of a card lie side by side. */
    rest = after->orig_mask;
    if (cap < 0) return node(s, after, 0, 0, rest, reserve, foundations, redeals_left - 1);
    int64_t outer = s->cap_until;
    s->cap_until = outer < s->nodes + cap ? outer : s->nodes + cap;
    s->limit = s->max_nodes < s->cap_until ? s->max_nodes : s->cap_until;
    Py_ssize_t depth = s->line_len;
    int r = node(s, after, 0, 0, rest, reserve, foundations, redeals_left - 1);
    if (r == R_CAPPED && s->nodes <= outer) {
        s->cuts++;
        s->line_len = depth;
        r = R_FAIL;
    } else if (r == R_ABANDONED) {
        s->line_len = depth;
        r = R_FAIL;
    }
    s->cap_until = outer;
    s->limit = s->max_nodes < outer ? s->max_nodes : outer;
    return r;
}

#define TRY(call)                     \
    do {                              \
        int r_ = (call);              \
        if (r_ != R_FAIL) return r_;  \
    } while (0)

static int children(Search *s, Pass *p, int drawn, u128 waste, u128 rest, const Reserve *reserve,
                    uint32_t foundations, int redeals_left, uint64_t takes, uint64_t lower) {
    const uint8_t *cards = p->cards;
    int refill = s->auto_refill;
    int stock_left = drawn < p->length;
    int top_bit = bit_length128(waste) - 1;
    int top = waste ? cards[top_bit] : -1;
    int binding = refill && !redeals_left;
    int up = 95 - cards_left(foundations);
    if (up > s->most_up && note_furthest(s, up) < 0) return R_OUT;

    /* Safe moves, made alone (search.py, SAFE MOVES). */
    if (top >= 0 && (!refill || !redeals_left)) {
        int twin_below = 0;
        if (binding) {
            u128 same = waste & p->of_suit[top / 13] & ~bit128(top_bit);
            while (same) {
                int pos = bit_length128(same) - 1;
                same ^= bit128(pos);
                if (cards[pos] == top) {
                    twin_below = 1;
                    break;
                }
            }
        }
        if (((lower >> top) & 1) || (twin_below && ((takes >> top) & 1))) {
            if (line_push(s, WASTE_UP) < 0) return R_OUT;
            TRY(node(s, p, drawn, waste ^ bit128(top_bit), rest ^ orig_bit(p, top_bit), *reserve,
                     play(top, foundations), redeals_left));
            s->line_len--;
            return R_FAIL;
        }
    }
    if (!refill || (!redeals_left && !stock_left)) {
        for (int i = 0; i < reserve->n; i++) {
            int card = reserve->c[i];
            if ((lower >> card) & 1) {
                if (line_push(s, card) < 0) return R_OUT;
                TRY(node(s, p, drawn, waste, rest, reserve_without(reserve, i),
                         play(card, foundations), redeals_left));
                s->line_len--;
                return R_FAIL;
            }
        }
    }

    int steps[MAX_SLOTS + 4], n = 0;
    if (top >= 0 && ((takes >> top) & 1)) steps[n++] = WASTE_UP;
    int previous = -1;
    for (int i = 0; i < reserve->n; i++) {
        int card = reserve->c[i];
        if (card != previous && ((takes >> card) & 1)) {
            previous = card;
            if (!(binding && stuck(card / 13, p, waste, play(card, foundations)))) steps[n++] = card;
        }
    }
    if (stock_left) {
        u128 grown = waste | bit128(drawn);
        if (!(binding && stuck(cards[drawn] / 13, p, grown, foundations)) &&
            !(!refill && !redeals_left && draw_crowds(p, drawn, waste, reserve, foundations, s->slots)))
            steps[n++] = DRAW;
    }
    if (top >= 0 && !refill && reserve->n < s->slots) steps[n++] = WASTE_DOWN;
    if (!stock_left && waste && redeals_left) steps[n++] = REDEAL;
    if (s->shaking && redeals_left && n > 1 && mt_random(&s->shake) < s->shake_share) {
        int head = steps[0];
        for (int i = 1; i < n; i++) steps[i - 1] = steps[i];
        steps[n - 1] = head;
    }

    for (int k = 0; k < n; k++) {
        int step = steps[k];
        if (line_push(s, step) < 0) return R_OUT;
        if (step == WASTE_UP) {
            TRY(node(s, p, drawn, waste ^ bit128(top_bit), rest ^ orig_bit(p, top_bit), *reserve,
                     play(top, foundations), redeals_left));
        } else if (step >= 0) {
            int i = 0;
            while (reserve->c[i] != step) i++;
            Reserve left = reserve_without(reserve, i);
            if (refill && stock_left) {
                left = reserve_with(&left, cards[drawn]);
                TRY(node(s, p, drawn + 1, waste, rest, left, play(step, foundations), redeals_left));
            } else {
                TRY(node(s, p, drawn, waste, rest, left, play(step, foundations), redeals_left));
            }
        } else if (step == DRAW) {
            TRY(node(s, p, drawn + 1, waste | bit128(drawn), rest, *reserve, foundations,
                     redeals_left));
        } else if (step == WASTE_DOWN) {
            TRY(node(s, p, drawn, waste ^ bit128(top_bit), rest ^ orig_bit(p, top_bit),
                     reserve_with(reserve, top), foundations, redeals_left));
        } else {
            TRY(redeal(s, p, drawn, waste, rest, *reserve, foundations, redeals_left));
        }
        s->line_len--;
    }
    return R_FAIL;
}

static int node(Search *s, Pass *p, int drawn, u128 waste, u128 rest, Reserve reserve,
                uint32_t foundations, int redeals_left) {
    if (foundations == WON_FOUNDATIONS) return R_WIN;
    uint64_t k[4];
    position_key(s, p, drawn, waste, rest, &reserve, foundations, redeals_left, k);
    uint64_t h = key_hash(k);
    Entry *e = table_find_hashed(s, k, h);
    /* A new position is put in the table once its children are searched:
     * fetch its slot meanwhile. */
    if (!e && s->table) __builtin_prefetch(&s->table[h & s->table_mask], 1, 1);
    if (e) {
        if (e->k[1] & LOST_FLAG) return R_FAIL;
        if (!entry_stale(s, e)) {
            s->cuts++;
            return R_FAIL;
        }
    }
    s->nodes++;
    if (s->nodes > s->limit) return s->nodes > s->max_nodes ? R_OUT : R_CAPPED;
    if (s->has_deadline && !(s->nodes % CHECK_CLOCK_EVERY) && now_clock(s->cpu_clock) > s->deadline)
        return R_OUT;
    uint64_t takes, lower;
    takers(foundations, &takes, &lower);
    int64_t cuts = s->cuts;
    int r = children(s, p, drawn, waste, rest, &reserve, foundations, redeals_left, takes, lower);
    if (r != R_FAIL) return r;
    if (s->cuts == cuts)
        table_put_hashed(s, k, LOST_FLAG, h);
    else
        table_put_hashed(s, k, (uint64_t)s->round << ROUND_SHIFT, h);
    return R_FAIL;
}

/* ---------------------------------------------------------------- Python glue */

static PyObject *busy(void) {
    PyErr_SetString(PyExc_RuntimeError, "the search is running a round in another thread");
    return NULL;
}

static void search_release(Search *s) {
    table_free(s->table, s->table ? s->table_mask + 1 : 0);
    s->table = NULL;
    s->table_mask = s->table_used = 0;
    filter_free(s);
    for (uint32_t i = 0; i < s->n_passes; i++) free(s->passes[i]);
    free(s->passes);
    s->passes = NULL;
    s->n_passes = s->passes_cap = 0;
    free(s->pass_index);
    s->pass_index = NULL;
    s->pass_index_mask = 0;
    s->pass_bytes = 0;
    for (int r = 0; r < 3; r++)
        for (int n = 0; n < MAX_CARDS; n++) {
            PyMem_RawFree(s->orders[r][n]);
            s->orders[r][n] = NULL;
        }
    s->first = NULL;
    PyMem_RawFree(s->kept);
    PyMem_RawFree(s->kept_steps);
    s->kept = NULL;
    s->kept_steps = NULL;
    s->n_kept = 0;
    s->kept_steps_len = s->kept_steps_cap = 0;
}

static void Search_dealloc(Search *s) {
    search_release(s);
    PyMem_RawFree(s->line);
    PyMem_RawFree(s->furthest);
    Py_XDECREF(s->redeal_order);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int read_cards(PyObject *seq_obj, uint8_t *out, int most, const char *what) {
    PyObject *seq = PySequence_Fast(seq_obj, what);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > most) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v < 0 || v >= 52) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: not a card id", what);
            return -1;
        }
        out[i] = (uint8_t)v;
    }
    Py_DECREF(seq);
    return (int)n;
}

static int Search_init(Search *s, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"cards",        "drawn",        "waste",     "reserve",
                             "foundations",  "redeals_left", "slots",     "auto_refill",
                             "shuffled_redeal", "redeal_order", "max_nodes", "max_seconds",
                             "memory_bytes", "count_at", "cpu_clock", "keep_starts", NULL};
    PyObject *cards_obj, *waste_obj, *reserve_obj, *order, *seconds_obj;
    int drawn, redeals_left, slots, auto_refill, shuffled;
    unsigned long foundations;
    long long max_nodes, memory_bytes;
    int count_at = 0, cpu_clock = 0;
    Py_ssize_t keep_starts = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiOOkiippOLOL|ipn", kwlist, &cards_obj, &drawn,
                                     &waste_obj, &reserve_obj, &foundations, &redeals_left, &slots,
                                     &auto_refill, &shuffled, &order, &max_nodes, &seconds_obj,
                                     &memory_bytes, &count_at, &cpu_clock, &keep_starts))
        return -1;
    if (s->running) {
        busy();
        return -1;
    }
    search_release(s);
    uint8_t cards[MAX_CARDS];
    int length = read_cards(cards_obj, cards, 96, "cards");
    if (length < 0) return -1;
    uint8_t res[MAX_SLOTS + 1];
    int n_res = read_cards(reserve_obj, res, MAX_SLOTS, "reserve");
    if (n_res < 0) return -1;
    if (slots < 0 || slots > MAX_SLOTS || n_res > slots || drawn < 0 || drawn > length ||
        redeals_left < 0 || redeals_left > 2 || max_nodes < 0 || memory_bytes <= 0 ||
        count_at < 0 || count_at > 2 || keep_starts < 0 ||
        !foundations || foundations > 0xffffffffUL) {
        PyErr_SetString(PyExc_ValueError, "not a position the search can take");
        return -1;
    }
    for (int i = 1; i < n_res; i++)
        if (res[i - 1] > res[i]) {
            PyErr_SetString(PyExc_ValueError, "the reserve must be sorted");
            return -1;
        }
    PyObject *ones = PyLong_FromUnsignedLongLong(~0ULL);
    PyObject *mask = ones ? PyNumber_And(waste_obj, ones) : NULL;
    Py_XDECREF(ones);
    if (!mask) return -1;
    uint64_t lo = PyLong_AsUnsignedLongLong(mask);
    Py_DECREF(mask);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *high = shift ? PyNumber_Rshift(waste_obj, shift) : NULL;
    Py_XDECREF(shift);
    if (!high) return -1;
    uint64_t hi = PyLong_AsUnsignedLongLong(high);
    Py_DECREF(high);
    if (PyErr_Occurred()) return -1;
    u128 waste = ((u128)hi << 64) | lo;
    if (drawn < 128 && (waste >> drawn)) {
        PyErr_SetString(PyExc_ValueError, "the waste lies below `drawn`");
        return -1;
    }
    double seconds = 0;
    s->cpu_clock = cpu_clock;
    s->has_deadline = seconds_obj != Py_None;
    if (s->has_deadline) {
        seconds = PyFloat_AsDouble(seconds_obj);
        if (seconds == -1.0 && PyErr_Occurred()) return -1;
        s->deadline = now_clock(cpu_clock) + seconds;
        s->grow_until = s->deadline - seconds / 2;
    }
    Py_INCREF(order);
    Py_XSETREF(s->redeal_order, order);
    s->slots = slots;
    s->auto_refill = auto_refill;
    s->shuffled_redeal = shuffled;
    s->max_nodes = max_nodes;
    s->nodes = s->cuts = 0;
    s->cap_until = s->limit = max_nodes;
    s->round = 0;
    s->fewest_left = NO_CAP;
    s->first_try = 0;
    s->dropped = 0;
    s->out_of_memory = 0;
    s->failed = 0;
    s->line_len = 0;
    s->furthest_len = 0;
    s->most_up = -1;
    s->memory_cap = (size_t)memory_bytes;
    if (filter_alloc(s) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    s->count_at = count_at;
    s->last_starts = 0;
    s->keep_starts = keep_starts;
    s->canonical = !shuffled;
    s->first = get_pass(s, redeals_left, cards, NULL, length);
    if (!s->first) {
        PyErr_SetString(PyExc_MemoryError, "the solver's memory cap is too small");
        return -1;
    }
    s->start_drawn = drawn;
    s->start_waste = waste;
    s->start_reserve.n = (uint8_t)n_res;
    memcpy(s->start_reserve.c, res, n_res);
    s->start_foundations = (uint32_t)foundations;
    s->start_redeals_left = redeals_left;
    return 0;
}

/* One round: "won", "lost" (complete, nothing cut), "cut" or "out" (of budget). */
static PyObject *Search_round(Search *s, PyObject *args) {
    long long cap1, cap0, shake_seed, budget;
    double share;
    if (!PyArg_ParseTuple(args, "LLLLd", &cap1, &cap0, &shake_seed, &budget, &share)) return NULL;
    if (s->running) return busy();
    if (!s->first) {
        PyErr_SetString(PyExc_RuntimeError, "the search's tables were released");
        return NULL;
    }
    s->caps[1] = cap1;
    s->caps[0] = cap0;
    s->shaking = shake_seed != 0;
    if (s->shaking) mt_seed(&s->shake, (uint64_t)(shake_seed < 0 ? -shake_seed : shake_seed));
    s->shake_share = share;
    s->round++;
    s->cap_until = budget < 0 ? NO_CAP : s->nodes + budget;
    s->limit = s->max_nodes < s->cap_until ? s->max_nodes : s->cap_until;
    int64_t cuts = s->cuts;
    s->line_len = 0;
    int r;
    /* The search touches no Python object but the redeal orders (redeal_order
     * takes the GIL back for them): other threads, such as the server's event
     * loop, run meanwhile. */
    s->running = 1;
    Py_BEGIN_ALLOW_THREADS
    r = node(s, s->first, s->start_drawn, s->start_waste,
             rest_of(s->first, s->start_drawn, s->start_waste), s->start_reserve, s->start_foundations,
             s->start_redeals_left);
    Py_END_ALLOW_THREADS
    s->running = 0;
    if (s->failed) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return NULL;
    }
    if (r == R_WIN) return PyUnicode_FromString("won");
    if (r == R_OUT) return PyUnicode_FromString("out");
    if (r == R_CAPPED) s->cuts++;
    return PyUnicode_FromString(s->cuts == cuts ? "lost" : "cut");
}

static PyObject *steps_list(const int16_t *steps, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(steps[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *Search_line(Search *s, PyObject *Py_UNUSED(ignored)) {
    if (s->running) return busy();
    return steps_list(s->line, s->line_len);
}

static PyObject *Search_furthest(Search *s, PyObject *Py_UNUSED(ignored)) {
    if (s->running) return busy();
    return steps_list(s->furthest, s->furthest_len);
}

/* The starts kept in counting mode: (cards, reserve, foundations, redeals_left, steps). */
static PyObject *Search_starts(Search *s, PyObject *Py_UNUSED(ignored)) {
    if (s->running) return busy();
    PyObject *out = PyList_New(s->n_kept);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < s->n_kept; i++) {
        const Kept *k = &s->kept[i];
        const Pass *p = s->passes[k->pass_id];
        PyObject *cards = PyTuple_New(p->length), *reserve = PyTuple_New(k->reserve.n),
                 *steps = PyList_New(k->steps_len), *item = NULL;
        if (cards && reserve && steps) {
            for (int j = 0; j < p->length; j++)
                PyTuple_SET_ITEM(cards, j, PyLong_FromLong(p->cards[j]));
            for (int j = 0; j < k->reserve.n; j++)
                PyTuple_SET_ITEM(reserve, j, PyLong_FromLong(k->reserve.c[j]));
            for (Py_ssize_t j = 0; j < k->steps_len; j++)
                PyList_SET_ITEM(steps, j, PyLong_FromLong(s->kept_steps[k->steps_at + j]));
            item = Py_BuildValue("(OOkiO)", cards, reserve, (unsigned long)k->foundations,
                                 (int)p->redeals_left, steps);
        }
        Py_XDECREF(cards);
        Py_XDECREF(reserve);
        Py_XDECREF(steps);
        if (!item || PyErr_Occurred()) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *Search_release(Search *s, PyObject *Py_UNUSED(ignored)) {
    if (s->running) return busy();
    search_release(s);
    Py_RETURN_NONE;
}

static PyObject *Search_stats(Search *s, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("{s:K,s:K,s:I,s:n,s:L,s:O,s:L}", "entries", (unsigned long long)s->table_used,
                         "table_bytes",
                         (unsigned long long)(s->table ? table_bytes(s->table_mask + 1) : 0),
                         "passes", s->n_passes, "pass_bytes", (Py_ssize_t)s->pass_bytes,
                         "dropped", (long long)s->dropped, "out_of_memory",
                         s->out_of_memory ? Py_True : Py_False, "last_starts",
                         (long long)s->last_starts);
}

static PyObject *Search_get_nodes(Search *s, void *closure) { return PyLong_FromLongLong(s->nodes); }

static PyMethodDef Search_methods[] = {
    {"round", (PyCFunction)Search_round, METH_VARARGS,
     "round(cap1, cap0, shake_seed, budget, shake_share) -> 'won' | 'lost' | 'cut' | 'out'"},
    {"line", (PyCFunction)Search_line, METH_NOARGS, "The line of the last round, as steps."},
    {"furthest", (PyCFunction)Search_furthest, METH_NOARGS,
     "The line to the position with the most cards up met so far, as steps."},
    {"starts", (PyCFunction)Search_starts, METH_NOARGS,
     "The starts kept in counting mode, with the lines to them."},
    {"release", (PyCFunction)Search_release, METH_NOARGS, "Free the tables."},
    {"stats", (PyCFunction)Search_stats, METH_NOARGS, "The tables' sizes."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "Positions searched so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.engine.solver._core.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One solve's search: its budget, tables and line (search.py, compiled).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static PyObject *core_mt_random(PyObject *Py_UNUSED(self), PyObject *args) {
    long long seed;
    int count;
    if (!PyArg_ParseTuple(args, "Li", &seed, &count)) return NULL;
    MT m;
    mt_seed(&m, (uint64_t)(seed < 0 ? -seed : seed));
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *v = PyFloat_FromDouble(mt_random(&m));
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyMethodDef core_methods[] = {
    {"mt_random", core_mt_random, METH_VARARGS,
     "mt_random(seed, count): the first random() numbers of random.Random(seed), as the core "
     "draws them."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "games.engine.solver._core",
    "The solver's search, compiled (search.py is the reference).", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
