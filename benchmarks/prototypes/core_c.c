/* Route (c): the prototypes' hot path in C behind the same Python interface as core.py (route a):
 * `compile_table(encode.Table)` once per game, then `table_actions(table, position)` and
 * `standing(table, fight)` on encode's tuples, returning the engine's own Action tuples. Each rule
 * mirrors the function of the same name in core.py (and so the engine); only Munchkin Deluxe's kinds
 * of card and abilities are read. Built by speed_routes.py (gcc and the Python headers). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAXC 256 /* cards a game may have here (bit sets of 4 words) */
#define MAXZ 64  /* cards in one zone */
#define MAXCOND 256
#define MAXPAIRS 1024
#define GOLD_PER_LEVEL 1000
#define WINNING_LEVEL 10
#define MAX_SALES 64
enum { F_ITEM = 1, F_BIG = 2, F_STEED = 4, F_ONE_SHOT = 8, F_NEEDS_STEED = 16 };
enum { F_ONLY_ARMOR = 128, F_FLOOR = 256, F_IGNORE_LEVEL = 512, F_LEVEL_ONLY = 1024, F_NO_SIDEKICKS = 2048 };
enum { A_CARRY_ANY_BIG = 1, A_DOUBLE_SALE = 2, A_THEFT = 4, A_WINS_TIES = 8 };
#define HUMAN 1000

typedef unsigned long long u64;
typedef struct { u64 w[MAXC / 64]; } Bits;

typedef struct {
    int n, granted, nconds;
    int idx[MAXC], flags[MAXC], gold[MAXC], bonus[MAXC], slot[MAXC], hands[MAXC], usable[MAXC];
    int not_usable[MAXC], extra_hands[MAXC], carries[MAXC], abil[MAXC], name_id[MAXC], level[MAXC];
    int strength[MAXC], next_bonus[MAXC], defeated_by[MAXC], sk_bonus[MAXC], alone[MAXC];
    long long tags[MAXC], no_bonus_from[MAXC];
    int cb_at[MAXC], cb_len[MAXC], mod_at[MAXC], mod_len[MAXC];
    int pair_cond[MAXPAIRS], pair_val[MAXPAIRS];
    int conds[MAXCOND][10];
} Table;

typedef struct {
    int seat, dead, level, sex, half, super_, changed, dbl_used, dbl_barred;
    int nhand, nitems, nraces, nclasses, nsk, ncurses;
    int hand[MAXZ], items[MAXZ], races[8], classes[8], sk[8], curses[MAXZ];
    Bits equipped, exempt, cheats, carrying;
} Player;

static PyObject *ActionType, *EMPTY, *S_EQUIP, *S_UNEQUIP, *S_DISCARD, *S_SELL, *S_GIVE, *S_TRADE, *S_STEAL;
static PyObject *S_NONE, *S_DOUBLE, *S_HIRELING;

static inline int has(const Bits *b, int c) { return (int)((b->w[c >> 6] >> (c & 63)) & 1); }

/* ------------------------------------------------------------------ reading Python values */
static int int_at(PyObject *t, Py_ssize_t i) { return (int)PyLong_AsLong(PyTuple_GET_ITEM(t, i)); }

static int read_ints(PyObject *seq, int *out, int cap) {
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    if (n > cap) n = cap;
    for (Py_ssize_t i = 0; i < n; i++) out[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(seq, i));
    return (int)n;
}

static int read_bits(PyObject *v, Bits *b) {
    memset(b, 0, sizeof *b);
    return _PyLong_AsByteArray((PyLongObject *)v, (unsigned char *)b->w, sizeof b->w, 1, 0);
}

static int read_player(PyObject *t, Player *p) {
    p->seat = int_at(t, 0);
    p->dead = PyObject_IsTrue(PyTuple_GET_ITEM(t, 1));
    p->level = int_at(t, 2);
    p->sex = int_at(t, 3);
    p->nhand = read_ints(PyTuple_GET_ITEM(t, 4), p->hand, MAXZ);
    p->nitems = read_ints(PyTuple_GET_ITEM(t, 5), p->items, MAXZ);
    read_bits(PyTuple_GET_ITEM(t, 6), &p->equipped);
    p->nraces = read_ints(PyTuple_GET_ITEM(t, 7), p->races, 8);
    p->nclasses = read_ints(PyTuple_GET_ITEM(t, 8), p->classes, 8);
    p->nsk = read_ints(PyTuple_GET_ITEM(t, 9), p->sk, 8);
    p->ncurses = read_ints(PyTuple_GET_ITEM(t, 10), p->curses, MAXZ);
    read_bits(PyTuple_GET_ITEM(t, 11), &p->exempt);
    read_bits(PyTuple_GET_ITEM(t, 12), &p->cheats);
    p->half = PyObject_IsTrue(PyTuple_GET_ITEM(t, 13));
    p->super_ = PyObject_IsTrue(PyTuple_GET_ITEM(t, 14));
    p->changed = PyObject_IsTrue(PyTuple_GET_ITEM(t, 15));
    p->dbl_used = PyObject_IsTrue(PyTuple_GET_ITEM(t, 16));
    p->dbl_barred = PyObject_IsTrue(PyTuple_GET_ITEM(t, 17));
    read_bits(PyTuple_GET_ITEM(t, 18), &p->carrying);
    return PyErr_Occurred() ? -1 : 0;
}

static int attr_ints(PyObject *obj, const char *name, int *out, int n) {
    PyObject *t = PyObject_GetAttrString(obj, name);
    if (t == NULL) return -1;
    for (int i = 0; i < n; i++) out[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, i));
    Py_DECREF(t);
    return PyErr_Occurred() ? -1 : 0;
}

static int attr_pairs(PyObject *obj, const char *name, Table *T, int *at, int *len, int *used) {
    PyObject *t = PyObject_GetAttrString(obj, name);
    if (t == NULL) return -1;
    for (int c = 0; c < T->n; c++) {
        PyObject *pairs = PyTuple_GET_ITEM(t, c);
        Py_ssize_t k = PyTuple_GET_SIZE(pairs);
        at[c] = *used;
        len[c] = (int)k;
        for (Py_ssize_t i = 0; i < k && *used < MAXPAIRS; i++, (*used)++) {
            PyObject *pr = PyTuple_GET_ITEM(pairs, i);
            T->pair_cond[*used] = int_at(pr, 0);
            T->pair_val[*used] = int_at(pr, 1);
        }
    }
    Py_DECREF(t);
    return PyErr_Occurred() ? -1 : 0;
}

static void free_table(PyObject *cap) { PyMem_Free(PyCapsule_GetPointer(cap, "core_c.Table")); }

/* compile_table(encode.Table) -> an opaque table for this game */
static PyObject *compile_table(PyObject *self, PyObject *t) {
    PyObject *nobj = PyObject_GetAttrString(t, "n");
    if (nobj == NULL) return NULL;
    int n = (int)PyLong_AsLong(nobj);
    Py_DECREF(nobj);
    if (n > MAXC) return PyErr_Format(PyExc_ValueError, "%d cards: at most %d here", n, MAXC);
    Table *T = PyMem_Calloc(1, sizeof(Table));
    if (T == NULL) return PyErr_NoMemory();
    T->n = n;
    int used = 0;
    if (attr_ints(t, "idx", T->idx, n) || attr_ints(t, "flags", T->flags, n) || attr_ints(t, "gold", T->gold, n) ||
        attr_ints(t, "bonus", T->bonus, n) || attr_ints(t, "slot", T->slot, n) || attr_ints(t, "hands", T->hands, n) ||
        attr_ints(t, "usable", T->usable, n) || attr_ints(t, "not_usable", T->not_usable, n) ||
        attr_ints(t, "extra_hands", T->extra_hands, n) || attr_ints(t, "carries", T->carries, n) ||
        attr_ints(t, "abil", T->abil, n) || attr_ints(t, "name_id", T->name_id, n) ||
        attr_ints(t, "level", T->level, n) || attr_ints(t, "strength", T->strength, n) ||
        attr_ints(t, "next_bonus", T->next_bonus, n) || attr_ints(t, "defeated_by", T->defeated_by, n) ||
        attr_ints(t, "sk_bonus", T->sk_bonus, n) || attr_ints(t, "alone", T->alone, n) ||
        attr_pairs(t, "cond_bonus", T, T->cb_at, T->cb_len, &used) || attr_pairs(t, "mods", T, T->mod_at, T->mod_len, &used)) {
        PyMem_Free(T);
        return NULL;
    }
    PyObject *tags = PyObject_GetAttrString(t, "tags"), *nbf = PyObject_GetAttrString(t, "no_bonus_from");
    PyObject *conds = PyObject_GetAttrString(t, "conds"), *granted = PyObject_GetAttrString(t, "granted");
    if (tags && nbf && conds && granted) {
        for (int c = 0; c < n; c++) {
            T->tags[c] = PyLong_AsLongLong(PyTuple_GET_ITEM(tags, c));
            T->no_bonus_from[c] = PyLong_AsLongLong(PyTuple_GET_ITEM(nbf, c));
        }
        T->nconds = (int)PyTuple_GET_SIZE(conds);
        for (int i = 0; i < T->nconds && i < MAXCOND; i++) read_ints(PyTuple_GET_ITEM(conds, i), T->conds[i], 10);
        T->granted = (int)PyLong_AsLong(granted);
    }
    Py_XDECREF(tags);
    Py_XDECREF(nbf);
    Py_XDECREF(conds);
    Py_XDECREF(granted);
    if (PyErr_Occurred() || used >= MAXPAIRS || T->nconds > MAXCOND) {
        PyMem_Free(T);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "the table is too large for this prototype");
        return NULL;
    }
    return PyCapsule_New(T, "core_c.Table", free_table);
}

/* ------------------------------------------------------------------ building Actions */
static PyObject *act(PyObject *kind, int seat, int card, int target, PyObject *cards, PyObject *flag) {
    if (ActionType == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "core_c.setup(Action) first");
        Py_DECREF(cards);
        return NULL;
    }
    PyObject *a = ((PyTypeObject *)ActionType)->tp_alloc((PyTypeObject *)ActionType, 8);
    if (a == NULL) {
        Py_DECREF(cards);
        return NULL;
    }
    Py_INCREF(kind);
    Py_INCREF(flag);
    PyTuple_SET_ITEM(a, 0, kind);
    PyTuple_SET_ITEM(a, 1, PyLong_FromLong(seat));
    PyTuple_SET_ITEM(a, 2, PyLong_FromLong(card));
    PyTuple_SET_ITEM(a, 3, PyLong_FromLong(target));
    PyTuple_SET_ITEM(a, 4, PyLong_FromLong(-1));
    PyTuple_SET_ITEM(a, 5, cards);
    PyTuple_SET_ITEM(a, 6, PyLong_FromLong(0));
    PyTuple_SET_ITEM(a, 7, flag);
    return a;
}

static int push(PyObject *out, PyObject *kind, int seat, int card, int target, PyObject *cards, PyObject *flag) {
    if (cards == NULL) return -1;
    PyObject *a = act(kind, seat, card, target, cards, flag);
    if (a == NULL) return -1;
    int r = PyList_Append(out, a);
    Py_DECREF(a);
    return r;
}

static PyObject *one(int c) {
    PyObject *t = PyTuple_New(1);
    if (t != NULL) PyTuple_SET_ITEM(t, 0, PyLong_FromLong(c));
    return t;
}
static PyObject *none_cards(void) { Py_INCREF(EMPTY); return EMPTY; }

/* ------------------------------------------------------------------ rules (as core.py) */
static int unique(const Table *T, const int *cards, int n, int *out) {
    unsigned char seen[MAXC] = {0};
    int k = 0;
    for (int i = 0; i < n; i++) {
        int id = T->idx[cards[i]];
        if (!seen[id]) { seen[id] = 1; out[k++] = cards[i]; }
    }
    return k;
}

static int abilities(const Table *T, const Player *p) {
    int a = 0;
    for (int i = 0; i < p->nclasses; i++) a |= T->abil[p->classes[i]];
    for (int i = 0; i < p->nraces; i++) a |= T->abil[p->races[i]];
    for (int i = 0; i < p->nsk; i++) a |= T->abil[p->sk[i]];
    return a & T->granted;
}

static int any_name(const Table *T, const int *cards, int n, int id) {
    for (int i = 0; i < n; i++) if (T->name_id[cards[i]] == id) return 1;
    return 0;
}

static int matches(const Table *T, const Player *p, int ci, int monster_bonus) {
    if (ci < 0) return 1;
    const int *c = T->conds[ci];
    int half = p->half && p->nraces == 1;
    if (c[0] >= 0) {
        if (c[0] == HUMAN) { if (p->nraces && !half) return 0; }
        else if (!any_name(T, p->races, p->nraces, c[0])) return 0;
        else if (monster_bonus && half) return 0;
    }
    if (c[1] >= 0 && any_name(T, p->races, p->nraces, c[1])) return 0;
    if (c[2] >= 0) {
        if (!any_name(T, p->classes, p->nclasses, c[2])) return 0;
        if (monster_bonus && p->super_ && p->nclasses == 1) return 0;
    }
    if (c[3] >= 0 && any_name(T, p->classes, p->nclasses, c[3])) return 0;
    if (c[4] >= 0 && p->sex != c[4]) return 0;
    if (c[5] >= 0 && p->level > c[5]) return 0;
    if (c[6] >= 0 && p->level < c[6]) return 0;
    if (c[7] >= 0 && ((p->nraces > 0 && !half) == (c[7] == 1))) return 0;
    if (c[8] >= 0 && ((p->nclasses > 0) == (c[8] == 1))) return 0;
    if (c[9] >= 0 && (p->changed != (c[9] == 1))) return 0;
    return 1;
}

static int can_use(const Table *T, const Player *p, int item) {
    if (has(&p->cheats, item)) return 1;
    if (T->flags[item] & F_NEEDS_STEED) {
        int steed = 0;
        for (int i = 0; i < p->nitems; i++) if (T->flags[p->items[i]] & F_STEED) steed = 1;
        if (!steed) return 0;
    }
    if (T->usable[item] >= 0 && !matches(T, p, T->usable[item], 0)) return 0;
    int nu = T->not_usable[item];
    if (nu >= 0 && matches(T, p, nu, 0)) {
        const int *c = T->conds[nu];
        if (c[2] >= 0 && p->super_ && p->nclasses == 1 && c[0] < 0 && c[4] < 0) return 1;
        if (c[0] >= 0 && p->half && p->nraces == 1 && c[2] < 0 && c[4] < 0) return 1;
        return 0;
    }
    return 1;
}

static int big_count(const Table *T, const Player *p) {
    int n = 0;
    for (int i = 0; i < p->nitems; i++) if ((T->flags[p->items[i]] & F_BIG) && !has(&p->exempt, p->items[i])) n++;
    return n;
}

static int big_room(const Table *T, const Player *p) {
    return (abilities(T, p) & A_CARRY_ANY_BIG) ? 99 : 1 - big_count(T, p);
}

static int equip_problem(const Table *T, const Player *p, int item) {
    if (!can_use(T, p, item)) return 1;
    if (has(&p->exempt, item)) return 0;
    int slot = T->slot[item];
    if (slot >= 1 && slot <= 3) {
        for (int i = 0; i < p->nitems; i++) {
            int c = p->items[i];
            if (has(&p->equipped, c) && T->slot[c] == slot && !has(&p->exempt, c)) return 1;
        }
    } else if (slot == 4) {
        int used = 0, limit = 2;
        for (int i = 0; i < p->nitems; i++) {
            int c = p->items[i];
            if (has(&p->equipped, c) && T->slot[c] == 4 && !has(&p->exempt, c)) used += T->hands[c];
        }
        for (int i = 0; i < p->nsk; i++) limit += T->extra_hands[p->sk[i]];
        if (used + T->hands[item] > limit) return 1;
    }
    return 0;
}

typedef struct {
    const Table *T;
    int n, room, dbl_ok, seat;
    int items[MAXZ], gold[MAXZ], rest[MAXZ + 1];
    int nkeys, key_len[MAX_SALES], key_dbl[MAX_SALES], keys[MAX_SALES][MAXZ];
    PyObject *out;
    int nout, failed;
} Sales;

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static void sales_rec(Sales *S, int i, int *chosen, int k, int tot, int dbl) {
    if (S->failed || S->nout >= MAX_SALES) return;
    int lv = tot / GOLD_PER_LEVEL < S->room ? tot / GOLD_PER_LEVEL : S->room;
    if (lv >= 1) {
        for (int x = 0; x < k; x++) {
            int j = chosen[x], less = tot - (j == dbl ? 2 * S->gold[j] : S->gold[j]);
            int lv2 = less / GOLD_PER_LEVEL < S->room ? less / GOLD_PER_LEVEL : S->room;
            if (lv2 >= lv) return;
        }
        int key[MAXZ];
        for (int x = 0; x < k; x++) key[x] = S->T->idx[S->items[chosen[x]]];
        qsort(key, (size_t)k, sizeof(int), cmp_int);
        int kd = dbl >= 0 ? S->T->idx[S->items[dbl]] : -1;
        for (int y = 0; y < S->nkeys; y++)
            if (S->key_len[y] == k && S->key_dbl[y] == kd && !memcmp(S->keys[y], key, sizeof(int) * (size_t)k)) return;
        memcpy(S->keys[S->nkeys], key, sizeof(int) * (size_t)k);
        S->key_len[S->nkeys] = k;
        S->key_dbl[S->nkeys++] = kd;
        PyObject *cards = PyTuple_New(k);
        if (cards == NULL) { S->failed = 1; return; }
        for (int x = 0; x < k; x++) PyTuple_SET_ITEM(cards, x, PyLong_FromLong(S->items[chosen[x]]));
        if (push(S->out, S_SELL, S->seat, dbl >= 0 ? S->items[dbl] : -1, -1, cards, dbl >= 0 ? S_DOUBLE : S_NONE)) S->failed = 1;
        S->nout++;
        return;
    }
    if (i < S->n && tot + S->rest[i] + (S->dbl_ok && dbl < 0 ? S->gold[i] : 0) < GOLD_PER_LEVEL) return;
    for (int j = i; j < S->n; j++) {
        chosen[k] = j;
        sales_rec(S, j + 1, chosen, k + 1, tot + S->gold[j], dbl);
        if (S->dbl_ok && dbl < 0) sales_rec(S, j + 1, chosen, k + 1, tot + 2 * S->gold[j], j);
    }
}

static const Table *SORT_T;
static const int *SORT_GOLD;
static int cmp_sale(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    if (SORT_GOLD[x] != SORT_GOLD[y]) return SORT_GOLD[y] - SORT_GOLD[x];
    if (SORT_T->idx[x] != SORT_T->idx[y]) return SORT_T->idx[x] - SORT_T->idx[y];
    return 0;
}

static int sale_actions(const Table *T, const Player *p, PyObject *out) {
    Sales S;
    S.T = T;
    S.room = WINNING_LEVEL - 1 - p->level;
    if (S.room <= 0) return 0;
    S.n = 0;
    int total = 0, best = 0;
    for (int i = 0; i < p->nitems + p->nhand && S.n < MAXZ; i++) {
        int c = i < p->nitems ? p->items[i] : p->hand[i - p->nitems];
        if (i >= p->nitems && !(T->flags[c] & (F_ITEM | F_ONE_SHOT))) continue;
        if (T->gold[c] > 0) {
            S.items[S.n++] = c;
            total += T->gold[c];
            if (T->gold[c] > best) best = T->gold[c];
        }
    }
    S.dbl_ok = (abilities(T, p) & A_DOUBLE_SALE) && !p->dbl_used && !p->dbl_barred;
    if (total + (S.dbl_ok ? best : 0) < GOLD_PER_LEVEL) return 0;
    /* a stable sort by (-gold, identity): insertion sort keeps equal keys in order */
    SORT_T = T;
    SORT_GOLD = T->gold;
    for (int i = 1; i < S.n; i++) {
        int c = S.items[i], j = i - 1;
        while (j >= 0 && cmp_sale(&S.items[j], &c) > 0) { S.items[j + 1] = S.items[j]; j--; }
        S.items[j + 1] = c;
    }
    for (int i = 0; i < S.n; i++) S.gold[i] = T->gold[S.items[i]];
    S.rest[S.n] = 0;
    for (int j = S.n - 1; j >= 0; j--) S.rest[j] = S.rest[j + 1] + S.gold[j];
    S.seat = p->seat;
    S.nkeys = S.nout = S.failed = 0;
    S.out = out;
    int chosen[MAXZ];
    sales_rec(&S, 0, chosen, 0, 0, -1);
    return S.failed ? -1 : 0;
}

/* table_actions(table, (seat, players)) -> list of Actions: legal.table_actions(own_turn=True) */
static PyObject *table_actions(PyObject *self, PyObject *args) {
    PyObject *cap, *pos;
    if (!PyArg_ParseTuple(args, "OO", &cap, &pos)) return NULL;
    const Table *T = PyCapsule_GetPointer(cap, "core_c.Table");
    if (T == NULL) return NULL;
    int seat = int_at(pos, 0);
    PyObject *ptuple = PyTuple_GET_ITEM(pos, 1);
    int np = (int)PyTuple_GET_SIZE(ptuple);
    Player P[6];
    if (np > 6) return PyErr_Format(PyExc_ValueError, "at most 6 players");
    for (int i = 0; i < np; i++) if (read_player(PyTuple_GET_ITEM(ptuple, i), &P[i])) return NULL;
    const Player *p = &P[seat];
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    int buf[MAXZ] = {0}, u[MAXZ] = {0}, k, m;
#define PUSH(kind, card, target, cards, flag) \
    if (push(out, kind, seat, card, target, cards, flag)) goto fail
    /* equips */
    k = 0;
    for (int i = 0; i < p->nitems; i++) if (has(&p->equipped, p->items[i])) buf[k++] = p->items[i];
    m = unique(T, buf, k, u);
    for (int i = 0; i < m; i++) { PUSH(S_UNEQUIP, u[i], -1, none_cards(), S_NONE); }
    k = 0;
    for (int i = 0; i < p->nitems; i++) {
        int c = p->items[i];
        if (!has(&p->equipped, c) && (T->flags[c] & F_ITEM) && !equip_problem(T, p, c)) buf[k++] = c;
    }
    m = unique(T, buf, k, u);
    for (int i = 0; i < m; i++) { PUSH(S_EQUIP, u[i], -1, none_cards(), S_NONE); }
    /* discards */
    for (int i = 0; i < p->nraces; i++) { PUSH(S_DISCARD, p->races[i], -1, none_cards(), S_NONE); }
    for (int i = 0; i < p->nclasses; i++) { PUSH(S_DISCARD, p->classes[i], -1, none_cards(), S_NONE); }
    if (sale_actions(T, p, out)) goto fail;
    /* Hirelings handed an Item */
    {
        int carriers[8], nc = 0;
        for (int i = 0; i < p->nsk; i++) if (T->carries[p->sk[i]] && !has(&p->carrying, p->sk[i])) carriers[nc++] = p->sk[i];
        for (int x = 0; x < nc; x++) {
            k = 0;
            for (int i = 0; i < p->nitems; i++) {
                int c = p->items[i];
                if (!has(&p->exempt, c) && (!has(&p->equipped, c) || (T->flags[c] & F_BIG)) && !(T->flags[c] & F_STEED)) buf[k++] = c;
            }
            m = unique(T, buf, k, u);
            for (int i = 0; i < m; i++) { PUSH(S_GIVE, u[i], -1, nc > 1 ? one(carriers[x]) : none_cards(), S_HIRELING); }
        }
    }
    if (p->nitems) {
        int mine[MAXZ], nm = 0;
        m = unique(T, p->items, p->nitems, u);
        for (int i = 0; i < m; i++) if (T->flags[u[i]] & F_ITEM) mine[nm++] = u[i];
        for (int qi = 0; qi < np; qi++) {
            const Player *q = &P[qi];
            if (qi == seat || q->dead) continue;
            int steed_room = 1, may_big = -1;
            for (int i = 0; i < q->nitems; i++)
                if ((T->flags[q->items[i]] & F_STEED) && !has(&q->cheats, q->items[i])) steed_room = 0;
            for (int i = 0; i < nm; i++) {
                int f = T->flags[mine[i]];
                if ((f & F_STEED) && !steed_room) continue;
                if ((f & F_BIG) && may_big < 0) may_big = ((abilities(T, q) & A_CARRY_ANY_BIG) || big_count(T, q) < 1) ? 1 : 0;
                if (!(f & F_BIG) || may_big == 1) { PUSH(S_GIVE, mine[i], q->seat, none_cards(), S_NONE); }
            }
        }
        int room_p = big_room(T, p);
        for (int qi = 0; qi < np; qi++) {
            const Player *q = &P[qi];
            if (qi == seat || q->dead || !q->nitems) continue;
            int room_q = big_room(T, q);
            k = 0;
            for (int i = 0; i < q->nitems; i++) if (T->flags[q->items[i]] & F_ITEM) buf[k++] = q->items[i];
            m = unique(T, buf, k, u);
            for (int i = 0; i < m; i++) {
                int tb = (T->flags[u[i]] & F_BIG) ? 1 : 0;
                for (int j = 0; j < nm; j++) {
                    int cb = (T->flags[mine[j]] & F_BIG) ? 1 : 0;
                    if ((tb && room_p + cb < 1) || (cb && room_q + tb < 1)) continue;
                    PUSH(S_TRADE, mine[j], q->seat, one(u[i]), S_NONE);
                }
            }
        }
    }
    if ((abilities(T, p) & A_THEFT) && (p->nhand || p->nitems)) {
        int fuel[4 * MAXZ], nf = 0, pay[4 * MAXZ];
        for (int i = 0; i < p->nhand; i++) fuel[nf++] = p->hand[i];
        for (int i = 0; i < p->nitems; i++) fuel[nf++] = p->items[i];
        if (p->nsk || p->nraces || p->nclasses) {
            for (int i = 0; i < p->nsk; i++) fuel[nf++] = p->sk[i];
            for (int i = 0; i < p->nraces; i++) fuel[nf++] = p->races[i];
            for (int i = 0; i < p->nclasses; i++) fuel[nf++] = p->classes[i];
        }
        int npay = unique(T, fuel, nf, pay);
        if (npay > 3) npay = 3;
        for (int qi = 0; qi < np; qi++) {
            const Player *q = &P[qi];
            if (qi == seat || q->dead) continue;
            k = 0;
            for (int i = 0; i < q->nitems; i++) if (!(T->flags[q->items[i]] & (F_BIG | F_STEED))) buf[k++] = q->items[i];
            m = unique(T, buf, k, u);
            for (int i = 0; i < m; i++)
                for (int d = 0; d < npay; d++) { PUSH(S_STEAL, u[i], q->seat, one(pay[d]), S_NONE); }
        }
    }
#undef PUSH
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* ------------------------------------------------------------------ weighing */
static int item_bonus(const Table *T, const Player *p, int item) {
    int b = T->bonus[item];
    for (int i = 0; i < T->cb_len[item]; i++)
        if (matches(T, p, T->pair_cond[T->cb_at[item] + i], 0)) b += T->pair_val[T->cb_at[item] + i];
    return b;
}

typedef struct {
    int fighter, helper, nmon, nside, doppleganger, nback, nf;
    int base[16], nenh[16], enh[16][8], oneshots[16], side_card[32], side_bonus[32], by_seat[6], back[16];
    Player f[2];
} Fight;

static int read_fight(PyObject *t, Fight *F) {
    F->fighter = int_at(t, 0);
    F->helper = int_at(t, 1);
    PyObject *mons = PyTuple_GET_ITEM(t, 2), *side = PyTuple_GET_ITEM(t, 3);
    F->nmon = (int)PyTuple_GET_SIZE(mons);
    if (F->nmon > 16) F->nmon = 16;
    for (int i = 0; i < F->nmon; i++) {
        PyObject *m = PyTuple_GET_ITEM(mons, i);
        F->base[i] = int_at(m, 0);
        F->nenh[i] = read_ints(PyTuple_GET_ITEM(m, 1), F->enh[i], 8);
        F->oneshots[i] = int_at(m, 2);
    }
    F->nside = (int)PyTuple_GET_SIZE(side);
    if (F->nside > 32) F->nside = 32;
    for (int i = 0; i < F->nside; i++) {
        F->side_card[i] = int_at(PyTuple_GET_ITEM(side, i), 0);
        F->side_bonus[i] = int_at(PyTuple_GET_ITEM(side, i), 1);
    }
    read_ints(PyTuple_GET_ITEM(t, 4), F->by_seat, 6);
    F->nback = read_ints(PyTuple_GET_ITEM(t, 5), F->back, 16);
    F->doppleganger = int_at(t, 6);
    PyObject *fs = PyTuple_GET_ITEM(t, 7);
    F->nf = (int)PyTuple_GET_SIZE(fs);
    if (F->nf > 2) F->nf = 2;
    for (int i = 0; i < F->nf; i++) if (read_player(PyTuple_GET_ITEM(fs, i), &F->f[i])) return -1;
    return PyErr_Occurred() ? -1 : 0;
}

static int char_strength(const Table *T, const Fight *F, const Player *p, int ignore_level, int lvl_only, long long muted) {
    int s = ignore_level ? 0 : p->level;
    if (!lvl_only) {
        int only_armor = 0;
        for (int i = 0; i < p->ncurses; i++) if (T->flags[p->curses[i]] & F_ONLY_ARMOR) only_armor = 1;
        for (int i = 0; i < p->nitems; i++) {
            int c = p->items[i];
            if (!has(&p->equipped, c) || (only_armor && T->slot[c] != 2)) continue;
            if (can_use(T, p, c) && !(T->tags[c] & muted)) s += item_bonus(T, p, c);
        }
        s += F->by_seat[p->seat];
        if (!only_armor) {
            int no_sk = 0;
            for (int i = 0; i < F->nmon; i++) if (T->flags[F->base[i]] & F_NO_SIDEKICKS) no_sk = 1;
            if (!no_sk) for (int i = 0; i < p->nsk; i++) s += T->sk_bonus[p->sk[i]];
            if (p->seat == F->fighter && F->helper < 0) {
                for (int i = 0; i < p->nraces; i++) s += T->alone[p->races[i]];
                for (int i = 0; i < p->nclasses; i++) s += T->alone[p->classes[i]];
            }
        }
    }
    for (int i = 0; i < p->ncurses; i++) s += T->next_bonus[p->curses[i]];
    for (int i = 0; i < F->nback; i++) if (F->back[i] == p->seat) s -= 2;
    if (F->doppleganger == p->seat && !lvl_only) s *= 2;
    return s;
}

/* standing(table, fight) -> ([(seat, strength)...], side, monsters, fighters win) */
static PyObject *standing(PyObject *self, PyObject *args) {
    PyObject *cap, *pos;
    if (!PyArg_ParseTuple(args, "OO", &cap, &pos)) return NULL;
    const Table *T = PyCapsule_GetPointer(cap, "core_c.Table");
    if (T == NULL) return NULL;
    Fight F;
    if (read_fight(pos, &F)) return NULL;
    int ignore_level = 0, lvl_only = 0;
    long long muted = 0;
    for (int i = 0; i < F.nmon; i++) {
        int fl = T->flags[F.base[i]];
        if (fl & F_IGNORE_LEVEL) ignore_level = 1;
        if (fl & F_LEVEL_ONLY) lvl_only = 1;
        muted |= T->no_bonus_from[F.base[i]];
    }
    int each_f[2], side = 0;
    for (int i = 0; i < F.nf; i++) side += each_f[i] = char_strength(T, &F, &F.f[i], ignore_level, lvl_only, muted);
    if (!lvl_only) {
        int shots = 0;
        for (int i = 0; i < F.nside; i++) if (!(T->tags[F.side_card[i]] & muted)) shots += F.side_bonus[i];
        side += shots * (F.doppleganger >= 0 ? 2 : 1);
    }
    int total = 0, mon = 0, all_beaten = 1;
    for (int i = 0; i < F.nmon; i++) {
        int b = F.base[i], s = T->level[b], floor = 0;
        for (int e = 0; e < F.nenh[i]; e++) {
            s += T->strength[F.enh[i][e]];
            if (T->flags[F.enh[i][e]] & F_FLOOR) floor = 1;
        }
        if (floor && s < 1) s = 1;
        for (int x = 0; x < T->mod_len[b]; x++) {
            int ci = T->pair_cond[T->mod_at[b] + x], v = T->pair_val[T->mod_at[b] + x];
            for (int f = 0; f < F.nf; f++) if (matches(T, &F.f[f], ci, v > 0)) { s += v; break; }
        }
        s += F.oneshots[i];
        total += s;
        int beaten = 0;
        if (T->defeated_by[b] >= 0)
            for (int f = 0; f < F.nf; f++) if (matches(T, &F.f[f], T->defeated_by[b], 0)) beaten = 1;
        if (!beaten) { all_beaten = 0; mon += s; }
    }
    int win;
    if (all_beaten) win = 1;
    else {
        int ties = 0;
        for (int f = 0; f < F.nf; f++) if (abilities(T, &F.f[f]) & A_WINS_TIES) ties = 1;
        win = side > mon || (side == mon && ties);
    }
    PyObject *fl = PyList_New(F.nf);
    if (fl == NULL) return NULL;
    for (int i = 0; i < F.nf; i++) PyList_SET_ITEM(fl, i, Py_BuildValue("(ii)", F.f[i].seat, each_f[i]));
    return Py_BuildValue("(NiiO)", fl, side, total, win ? Py_True : Py_False);
}

/* setup(Action): the engine's Action type, to build its tuples directly */
static PyObject *setup(PyObject *self, PyObject *action) {
    Py_XSETREF(ActionType, Py_NewRef(action));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_O, "setup(Action): the engine's Action type."},
    {"compile_table", compile_table, METH_O, "compile_table(encode.Table) -> this game's table, in C."},
    {"table_actions", table_actions, METH_VARARGS, "table_actions(table, position) -> legal.table_actions(own_turn=True)."},
    {"standing", standing, METH_VARARGS, "standing(table, fight) -> combat.standing."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "core_c", "Route (c): the hot path in C.", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_core_c(void) {
    EMPTY = PyTuple_New(0);
    S_EQUIP = PyUnicode_InternFromString("equip");
    S_UNEQUIP = PyUnicode_InternFromString("unequip");
    S_DISCARD = PyUnicode_InternFromString("discard");
    S_SELL = PyUnicode_InternFromString("sell");
    S_GIVE = PyUnicode_InternFromString("give");
    S_TRADE = PyUnicode_InternFromString("trade");
    S_STEAL = PyUnicode_InternFromString("steal");
    S_NONE = PyUnicode_InternFromString("");
    S_DOUBLE = PyUnicode_InternFromString("double");
    S_HIRELING = PyUnicode_InternFromString("hireling");
    return PyModule_Create(&module);
}
