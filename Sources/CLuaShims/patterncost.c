/*
 * The sandbox's bound of the work of Lua's pattern matcher (see include/luasandbox.h,
 * flua_pattern_cost, and docs/sandbox.md, "Pattern matching"); sandbox.c refuses the
 * pattern calls whose bound passes the limit.
 */
#include "include/luasandbox.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>

/* ------------------------------------------------------------ pattern cost bound */

/* Does byte c match class letter cl (the letter after '%')? */
static int sb_classmatch(int c, int cl) {
    int r;
    switch (tolower(cl)) {
    case 'a': r = isalpha(c); break;
    case 'c': r = iscntrl(c); break;
    case 'd': r = isdigit(c); break;
    case 'g': r = isgraph(c); break;
    case 'l': r = islower(c); break;
    case 'p': r = ispunct(c); break;
    case 's': r = isspace(c); break;
    case 'u': r = isupper(c); break;
    case 'w': r = isalnum(c); break;
    case 'x': r = isxdigit(c); break;
    default: return cl == c;
    }
    return isupper(cl) ? !r : r != 0;
}

/* The end of the single-character class starting at p[i] (one past it); pl when the
 * pattern is malformed there (the real matcher reports that). */
static size_t sb_classend(const char *p, size_t pl, size_t i) {
    if (p[i] == '%') return i + 2 <= pl ? i + 2 : pl;
    if (p[i] != '[') return i + 1;
    size_t j = i + 1;
    if (j < pl && p[j] == '^') j++;
    do { /* the first character of a set is never its end, even ']' */
        if (j >= pl) return pl;
        if (p[j++] == '%') j++;
    } while (j < pl && p[j] != ']');
    return j < pl ? j + 1 : pl;
}

/* Does byte c match the class p[i..e)? */
static int sb_singlematch(int c, const char *p, size_t i, size_t e) {
    if (p[i] == '.') return 1;
    if (p[i] == '%') return sb_classmatch(c, (unsigned char)p[i + 1]);
    if (p[i] != '[') return (unsigned char)p[i] == c;
    size_t j = i + 1, end = e - 1; /* end: the closing ']' */
    int negate = 0;
    if (p[j] == '^') {
        negate = 1;
        j++;
    }
    int found = 0;
    for (; j < end; j++) {
        if (p[j] == '%' && j + 1 < end) {
            j++;
            if (sb_classmatch(c, (unsigned char)p[j])) found = 1;
        } else if (j + 2 < end && p[j + 1] == '-') {
            if ((unsigned char)p[j] <= c && c <= (unsigned char)p[j + 2]) found = 1;
            j += 2;
        } else if ((unsigned char)p[j] == c) {
            found = 1;
        }
    }
    return negate ? !found : found;
}

/* The longest run of bytes of s[from..n) matching the class p[i..e). */
static size_t sb_longestrun(const char *s, size_t n, size_t from, const char *p, size_t i, size_t e) {
    if (p[i] == '.') return n - from;
    size_t best = 0, run = 0;
    for (size_t k = from; k < n; k++) {
        run = sb_singlematch((unsigned char)s[k], p, i, e) ? run + 1 : 0;
        if (run > best) best = run;
    }
    return best;
}

/* What testing one byte against the class p[i..e) costs: a set ([...]) is read through
 * for every byte it is tested against. */
static double sb_classcost(const char *p, size_t i, size_t e) { return p[i] == '[' ? (double)(e - i) : 1; }

/* Lua's matcher backtracks: at one start position it tries, for every quantified item,
 * every length the item can take, so its work is bounded by the product over the items of
 * (longest run of the item's class in the subject + 1), times what testing the items
 * costs (one step each, a set's length for a set); a balance (%b) or back-reference scans
 * up to the subject's length. Every start position is tried unless the pattern is
 * anchored. The bound is a worst case: a pattern that would match early is judged by it
 * too. Computing the runs is counted as well, and once that alone passes `limit` the
 * runs are not computed (the cost so far is returned). */
double flua_pattern_cost_within(const char *s, size_t n, size_t init, const char *p, size_t pl, int plain, double limit) {
    if (init > n) return 1;
    double starts = (double)(n - init) + 1;
    if (plain) return (double)n + starts * (double)pl / 32; /* memchr + memcmp */
    size_t i = 0;
    if (pl > 0 && p[0] == '^') {
        starts = 1;
        i = 1;
    }
    double product = 1, items = 1, analysis = 0;
    while (i < pl) {
        items += 1;
        char c = p[i];
        if (c == '(' || c == ')') {
            i++;
            continue;
        }
        if (c == '$' && i + 1 == pl) break;
        if (c == '%' && i + 1 < pl) {
            char d = p[i + 1];
            if (d == 'b') {
                product *= (double)n + 1;
                i += 4;
                continue;
            }
            if (d == 'f') {
                i += 2;
                if (i < pl) {
                    size_t e = sb_classend(p, pl, i);
                    items += sb_classcost(p, i, e) - 1;
                    i = e;
                }
                continue;
            }
            if (d >= '0' && d <= '9') {
                product *= (double)n + 1;
                i += 2;
                continue;
            }
        }
        size_t e = sb_classend(p, pl, i);
        double test = sb_classcost(p, i, e);
        items += test - 1;
        if (e >= pl || (p[e] != '*' && p[e] != '+' && p[e] != '-' && p[e] != '?')) {
            i = e;
            continue;
        }
        if (p[e] == '?') {
            product *= 2;
        } else {
            analysis += (double)(n - init) * test;
            if (analysis > limit) return analysis;
            product *= (double)sb_longestrun(s, n, init, p, i, e) + 1;
        }
        i = e + 1;
    }
    return analysis + starts * items * product;
}

double flua_pattern_cost(const char *s, size_t n, size_t init, const char *p, size_t pl, int plain) {
    return flua_pattern_cost_within(s, n, init, p, pl, plain, HUGE_VAL);
}

