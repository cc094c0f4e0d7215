/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * printf-style formatting without libc.
 */
#include "assert-fundamental.h"
#include "memory-fundamental.h"
#include "printf-fundamental.h"
#include "string-fundamental.h"

/* Where the text goes: bytes beyond the buffer are counted, not written. */
typedef struct Output {
        char *buf;
        size_t size;
        size_t n;
} Output;

typedef struct Spec {
        bool left;              /* '-' */
        bool zero;              /* '0' */
        int width;
        int precision;          /* -1: none */
        char length;            /* 'H' hh, 'h', 'l', 'L' ll, 'z', 'j', 't', or 0 */
        char conversion;
} Spec;

static void put(Output *o, char c) {
        if (o->n + 1 < o->size)
                o->buf[o->n] = c;
        o->n++;
}

static void put_repeated(Output *o, char c, int count) {
        for (int i = 0; i < count; i++)
                put(o, c);
}

static void put_bytes(Output *o, const char *s, size_t n) {
        for (size_t i = 0; i < n; i++)
                put(o, s[i]);
}

static int parse_number(const char **p) {
        int v = 0;

        while (fascii_isdigit(**p)) {
                if (v < 100000)  /* no message is that wide; stay clear of overflow */
                        v = v * 10 + (**p - '0');
                (*p)++;
        }
        return v;
}

/* Reads flags, width, precision and length after '%'; leaves *p at the conversion character. */
static void parse_spec(const char **p, va_list *ap, Spec *s) {
        *s = (Spec) { .precision = -1 };
        for (;; (*p)++) {
                if (**p == '-')
                        s->left = true;
                else if (**p == '0')
                        s->zero = true;
                else
                        break;
        }
        if (**p == '*') {
                s->width = va_arg(*ap, int);
                if (s->width < 0) {
                        /* a negative width argument is the '-' flag and a positive width */
                        s->left = true;
                        s->width = s->width < -100000 ? 100000 : -s->width;
                }
                (*p)++;
        } else
                s->width = parse_number(p);
        if (**p == '.') {
                (*p)++;
                if (**p == '*') {
                        s->precision = va_arg(*ap, int);
                        if (s->precision < 0)
                                s->precision = -1;
                        (*p)++;
                } else
                        s->precision = parse_number(p);
        }
        if ((*p)[0] == 'h' && (*p)[1] == 'h') {
                s->length = 'H';
                *p += 2;
        } else if ((*p)[0] == 'l' && (*p)[1] == 'l') {
                s->length = 'L';
                *p += 2;
        } else if (**p == 'h' || **p == 'l' || **p == 'z' || **p == 'j' || **p == 't')
                s->length = *(*p)++;
        s->conversion = **p;
}

static void put_padded(Output *o, const Spec *s, const char *text, size_t n) {
        int pad = s->width > (int) n ? s->width - (int) n : 0;

        if (!s->left)
                put_repeated(o, ' ', pad);
        put_bytes(o, text, n);
        if (s->left)
                put_repeated(o, ' ', pad);
}

static void put_string(Output *o, const Spec *s, const char *text) {
        size_t n;

        if (!text)
                text = "(null)";
        n = s->precision >= 0 ? fstrnlen(text, (size_t) s->precision) : fstrlen(text);
        put_padded(o, s, text, n);
}

/* An integer: sign, zeros up to the precision (or the width with '0'), digits, padding. */
static void put_integer(Output *o, const Spec *s, uint64_t magnitude, bool negative, const char *prefix) {
        const char *digits = s->conversion == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
        unsigned base = s->conversion == 'x' || s->conversion == 'X' || s->conversion == 'p' ? 16 : 10;
        char text[24];
        int n = 0, zeros, pad, head = (negative ? 1 : 0) + (int) fstrlen(prefix);

        /* "%.0d" of 0 prints no digit at all */
        if (magnitude != 0 || s->precision != 0)
                do {
                        text[n++] = digits[magnitude % base];
                        magnitude /= base;
                } while (magnitude);
        zeros = s->precision > n ? s->precision - n : 0;
        if (s->zero && !s->left && s->precision < 0 && s->width > head + n)
                zeros = s->width - head - n;
        pad = s->width > head + zeros + n ? s->width - head - zeros - n : 0;

        if (!s->left)
                put_repeated(o, ' ', pad);
        if (negative)
                put(o, '-');
        put_bytes(o, prefix, fstrlen(prefix));
        put_repeated(o, '0', zeros);
        while (n > 0)
                put(o, text[--n]);
        if (s->left)
                put_repeated(o, ' ', pad);
}

static int64_t signed_argument(const Spec *s, va_list *ap) {
        switch (s->length) {
        case 'H': return (signed char) va_arg(*ap, int);
        case 'h': return (short) va_arg(*ap, int);
        case 'l': return va_arg(*ap, long);
        case 'L': return va_arg(*ap, long long);
        case 'z': return (int64_t) va_arg(*ap, size_t);   /* ssize_t has no freestanding header */
        case 'j': return va_arg(*ap, intmax_t);
        case 't': return va_arg(*ap, ptrdiff_t);
        default: return va_arg(*ap, int);
        }
}

static uint64_t unsigned_argument(const Spec *s, va_list *ap) {
        switch (s->length) {
        case 'H': return (unsigned char) va_arg(*ap, unsigned);
        case 'h': return (unsigned short) va_arg(*ap, unsigned);
        case 'l': return va_arg(*ap, unsigned long);
        case 'L': return va_arg(*ap, unsigned long long);
        case 'z': return va_arg(*ap, size_t);
        case 'j': return va_arg(*ap, uintmax_t);
        case 't': return (uint64_t) va_arg(*ap, ptrdiff_t);
        default: return va_arg(*ap, unsigned);
        }
}

/* One conversion; false when the character is not one we know. */
static bool put_conversion(Output *o, const Spec *s, va_list *ap) {
        int64_t v;
        char c;

        switch (s->conversion) {
        case 'd':
        case 'i':
                v = signed_argument(s, ap);
                /* the magnitude of INT64_MIN does not fit int64_t, but does fit uint64_t */
                put_integer(o, s, v < 0 ? (uint64_t) 0 - (uint64_t) v : (uint64_t) v, v < 0, "");
                return true;
        case 'u':
        case 'x':
        case 'X':
                put_integer(o, s, unsigned_argument(s, ap), false, "");
                return true;
        case 'p':
                put_integer(o, s, (uint64_t) (uintptr_t) va_arg(*ap, void *), false, "0x");
                return true;
        case 'c':
                c = (char) va_arg(*ap, int);
                put_padded(o, s, &c, 1);
                return true;
        case 's':
                put_string(o, s, va_arg(*ap, const char *));
                return true;
        case '%':
                put(o, '%');
                return true;
        default:
                return false;
        }
}

size_t fvsnprintf(char *buf, size_t size, const char *fmt, va_list ap_in) {
        Output o = { .buf = buf, .size = size };
        va_list ap;

        fassert(buf || size == 0);
        fassert(fmt);

        /* a copy, so that helpers can take it by address on every ABI */
        va_copy(ap, ap_in);
        for (const char *p = fmt; *p; p++) {
                const char *start = p;
                Spec s;

                if (*p != '%') {
                        put(&o, *p);
                        continue;
                }
                p++;
                parse_spec(&p, &ap, &s);
                if (!put_conversion(&o, &s, &ap)) {
                        put_bytes(&o, start, (size_t) (p - start) + (*p ? 1 : 0));
                        if (!*p)
                                break;
                }
        }
        va_end(ap);
        if (size > 0)
                buf[o.n < size ? o.n : size - 1] = 0;
        return o.n;
}

size_t fsnprintf(char *buf, size_t size, const char *fmt, ...) {
        va_list ap;
        size_t n;

        fassert(buf || size == 0);
        fassert(fmt);

        va_start(ap, fmt);
        n = fvsnprintf(buf, size, fmt, ap);
        va_end(ap);
        return n;
}

char *fasprintf(const char *fmt, ...) {
        va_list ap;
        size_t n;
        char *buf;

        fassert(fmt);

        va_start(ap, fmt);
        n = fvsnprintf(NULL, 0, fmt, ap);
        va_end(ap);
        buf = fmalloc(n + 1);
        if (!buf)
                return NULL;
        va_start(ap, fmt);
        (void) fvsnprintf(buf, n + 1, fmt, ap);
        va_end(ap);
        return buf;
}
